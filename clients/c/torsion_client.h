/* clients/c/torsion_client.h — a small blocking C client for torsiond.
 *
 * One tnClient is one connection, used by one thread at a time. Calls send one request
 * and wait for its final frame; streamed results (Rollout, Forward, Inverse, TransitionFD,
 * InverseFD) are assembled into caller-visible arrays. The raw layer (tnc_send / tnc_recv /
 * tnc_send_bytes) exposes the protobuf-c messages of proto/torsion.proto for tests and tools
 * that need more. Every function returning int gives 0 on success and -1 on failure;
 * tnc_error() says why and tnc_error_code() gives the server's ErrorCode (or TNC_E_* below
 * for client-side failures). */
#ifndef TORSION_CLIENT_H
#define TORSION_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "torsion.pb-c.h"

#ifdef __cplusplus
extern "C" {
#endif

/* client-side failure codes (server codes are the positive torsion.v1.ErrorCode values) */
#define TNC_E_IO (-1)       /* connection failed or closed */
#define TNC_E_PROTOCOL (-2) /* an unexpected or undecodable response */
#define TNC_E_ARGUMENT (-3) /* a bad argument to the client call */
#define TNC_E_MEMORY (-4)

/* mjtState combinations (MuJoCo's values) */
#define TNC_STATE_FULLPHYSICS 0x201F /* TIME | QPOS | QVEL | ACT | HISTORY | PLUGIN */
#define TNC_STATE_INTEGRATION 0x3FFF /* every component */

typedef struct tnClient_ tnClient;

/* connect to "unix:PATH", "tcp:HOST:PORT", "tls:HOST:PORT", a path containing '/', or
 * "HOST:PORT". Returns NULL with a message in err on failure. A "tls:" address is TCP with
 * TLS (1.2 or newer), verified as tnc_connect_ca does with tls_ca NULL. */
tnClient* tnc_connect(const char* address, char* err, size_t errsz);

/* tnc_connect with the CA certificates (PEM file) that a "tls:" server's certificate must
 * chain to; NULL: $TORSION_TLS_CA when set, else the system's trusted CAs. The certificate
 * must also name HOST (a DNS name, or an IP address in its subjectAltName). A failed
 * verification fails the connect with the reason in err. Other address forms ignore tls_ca. */
tnClient* tnc_connect_ca(const char* address, const char* tls_ca, char* err, size_t errsz);

/* close and free */
void tnc_close(tnClient* c);

/* the last failure */
const char* tnc_error(const tnClient* c);
int tnc_error_code(const tnClient* c);

/* bytes sent and received on this connection */
uint64_t tnc_bytes_sent(const tnClient* c);
uint64_t tnc_bytes_received(const tnClient* c);

/* ---------------------------------------------------------------------------------------
 * raw layer
 * ------------------------------------------------------------------------------------- */

/* a fresh request id */
uint64_t tnc_next_id(tnClient* c);

/* send one request frame */
int tnc_send(tnClient* c, const Torsion__V1__Request* req);

/* send arbitrary bytes (tests of malformed input) */
int tnc_send_bytes(tnClient* c, const void* data, size_t len);

/* receive one response frame; NULL on failure. Free with tnc_free. */
Torsion__V1__Response* tnc_recv(tnClient* c);
void tnc_free(Torsion__V1__Response* r);

/* send `req` (its id is set) and return its final response; an Error response is returned
 * too (and recorded as the last error) */
Torsion__V1__Response* tnc_call(tnClient* c, Torsion__V1__Request* req);

/* ---------------------------------------------------------------------------------------
 * calls
 * ------------------------------------------------------------------------------------- */

/* server facts from Hello */
typedef struct tncHello_ {
  uint32_t protocol_version;
  uint32_t workers;
  uint32_t mujoco_version;
  uint64_t max_frame_bytes;
  char server_version[32];
} tncHello;

/* Hello with an optional token (NULL: none); out may be NULL */
int tnc_hello(tnClient* c, const char* token, tncHello* out);

/* a named asset blob */
typedef struct tncAsset_ {
  const char* name;
  const void* data;
  size_t len;
} tncAsset;

/* read a whole file (a model's text, an asset) into a NUL-terminated buffer to free(); its
 * length goes to *len unless len is NULL. NULL when the file cannot be read. */
char* tnc_read_file(const char* path, size_t* len);

/* load MJCF text (with assets) or a server-side path; handle receives the model handle */
int tnc_load_xml(tnClient* c, const char* xml, const tncAsset* assets, int nasset, char handle[65],
                 int* cached);

/* The files an MJCF model references (includes, meshes, height fields, skins, textures,
 * attached models), read from disk and named by their normalized paths relative to the
 * model's directory, as tnc_load_xml needs them (the server reads nothing else). */
typedef struct tncAssets_ {
  tncAsset* a;  /* [n]: pass a and n to tnc_load_xml */
  char** owned; /* [2 * cap]: per asset its owned name and data (NULL: the caller's) */
  int n, cap;
} tncAssets;

/* Gather into out (zero-initialized) the files the model at path (its text: xml)
 * references; 0, or -1 with the reason in err (an unreadable file, an absolute path or one
 * leaving the model's directory). Free the set with tnc_assets_free either way. */
int tnc_assets_collect(const char* path, const char* xml, tncAssets* out, char* err,
                       size_t errsz);

/* Add an asset whose name and data stay the caller's unless passed as owned; 0 or -1. */
int tnc_assets_add(tncAssets* s, const char* name, const void* data, size_t len,
                   char* name_owned, char* data_owned);

/* Release the set and what it owns. */
void tnc_assets_free(tncAssets* s);
int tnc_load_path(tnClient* c, const char* path, char handle[65], int* cached);

/* model sizes */
typedef struct tncModelInfo_ {
  int nq, nv, nu, na, nbody, nsensordata, nkey, nmocap;
  double timestep;
  int state_sizes[16]; /* mj_stateSize of each mjtState bit */
  int nstate_full;
  char name[128];
} tncModelInfo;

int tnc_model_info(tnClient* c, const char* handle, tncModelInfo* info);

/* mj_stateSize of a spec from the component sizes */
int tnc_state_size(const tncModelInfo* info, int spec);

int tnc_unload(tnClient* c, const char* handle);

/* a rollout request */
typedef struct tncRollout_ {
  const char* model;
  int spec; /* mjtState bits; 0: FULLPHYSICS */
  int B, nstate, nu, nstep;
  const double* state0; /* [B, nstate] */
  const double* ctrl;   /* [ctrl_b, ctrl_t, nu] or NULL */
  int ctrl_b, ctrl_t;   /* 1 or B, 1 or nstep */
  int record_every;
  int final_only;
  int sensordata;
  int float32;
  int chunk_envs;
  uint32_t deadline_ms;
} tncRollout;

/* its assembled result */
typedef struct tncRolloutResult_ {
  int B, nrec, nstate, nsens, float32;
  void* states;       /* [B, nrec, nstate] double or float */
  void* sensordata;   /* [B, nrec, nsens] or NULL */
  uint32_t* warnings; /* [B] */
  uint32_t* steps;    /* [nrec] */
  int nframes;
} tncRolloutResult;

int tnc_rollout(tnClient* c, const tncRollout* req, tncRolloutResult* out);
void tnc_rollout_free(tncRolloutResult* r);

/* forward dynamics: qacc [B, nv] for states [B, nstate] and controls [ctrl_b, nu] (NULL) */
int tnc_forward(tnClient* c, const char* model, int spec, int B, int nstate, const double* state,
                const double* ctrl, int ctrl_b, int nu, int nv, double* qacc);

/* ---------------------------------------------------------------------------------------
 * inverse dynamics and finite-difference derivatives (client_fd.c)
 * ------------------------------------------------------------------------------------- */

/* mjd_transitionFD for B states [B, nstate] (spec: mjtState bits, 0: FULLPHYSICS) and
 * controls [ctrl_b, nu] (ctrl_b 1 or B; NULL: zero controls) */
typedef struct tncTransitionFD_ {
  const char* model;
  int spec, B, nstate;
  const double* state;
  const double* ctrl;
  int ctrl_b, nu;
  double eps;          /* > 0 */
  int centered;        /* 0 forward, 1 centered differences */
  int sensors;         /* also C and D (model must have sensors) */
  int chunk_envs;      /* 0: the server's choice */
  uint32_t deadline_ms;
} tncTransitionFD;
/* the assembled result (arrays malloc'ed, row-major, MuJoCo's layout per item) */
typedef struct tncTransitionFDResult_ {
  int B, nx, nu, ns;    /* nx = 2*nv + na, ns = nsensordata (0 unless sensors) */
  double* A;            /* [B, nx, nx] */
  double* Bm;           /* [B, nx, nu] (NULL when nu == 0) */
  double* C;            /* [B, ns, nx] or NULL */
  double* D;            /* [B, ns, nu] or NULL */
} tncTransitionFDResult;
int tnc_transition_fd(tnClient* c, const tncTransitionFD* req, tncTransitionFDResult* out);
void tnc_transition_fd_free(tncTransitionFDResult* r);
/* mj_inverse: qfrc_inverse [B, nv] for states [B, nstate] and qacc [B, nv] */
int tnc_inverse(tnClient* c, const char* model, int spec, int B, int nstate,
                const double* state, const double* qacc, int nv, double* qfrc_out);

/* the outputs of tnc_inverse_fd (InverseFDRequest.outputs bits, mjd_inverseFD's order) */
#define TNC_IFD_DFDQ 0x01
#define TNC_IFD_DFDV 0x02
#define TNC_IFD_DFDA 0x04
#define TNC_IFD_DSDQ 0x08 /* the sensor Jacobians need a model with evaluated sensors */
#define TNC_IFD_DSDV 0x10
#define TNC_IFD_DSDA 0x20
#define TNC_IFD_DMDQ 0x40
#define TNC_IFD_DEFAULT (TNC_IFD_DFDQ | TNC_IFD_DFDV | TNC_IFD_DFDA | TNC_IFD_DMDQ)

/* mjd_inverseFD (forward differences) for B states [B, nstate] (spec: mjtState bits, 0:
 * FULLPHYSICS) and accelerations qacc [B, nv] */
typedef struct tncInverseFD_ {
  const char* model;
  int spec, B, nstate;
  const double* state;
  const double* qacc;
  int nv;
  double eps;     /* > 0 */
  int actuation;  /* flg_actuation: qfrc_actuator is subtracted from qfrc_inverse */
  int outputs;    /* TNC_IFD_* bits; 0: TNC_IFD_DEFAULT */
  int chunk_envs; /* 0: the server's choice */
  uint32_t deadline_ms;
} tncInverseFD;
/* the assembled result (arrays malloc'ed; NULL when not asked). As in MuJoCo, each item's
 * matrices are transposed w.r.t. control theory: row i is the derivative w.r.t. input i */
typedef struct tncInverseFDResult_ {
  int B, nv, ns, nC; /* ns = nsensordata, nC = nonzeros of M (DmDq's columns) */
  double* DfDq;      /* [B, nv, nv] */
  double* DfDv;      /* [B, nv, nv] */
  double* DfDa;      /* [B, nv, nv] */
  double* DsDq;      /* [B, nv, ns] */
  double* DsDv;      /* [B, nv, ns] */
  double* DsDa;      /* [B, nv, ns] */
  double* DmDq;      /* [B, nv, nC]: derivative of d->M in its CSR layout */
} tncInverseFDResult;
int tnc_inverse_fd(tnClient* c, const tncInverseFD* req, tncInverseFDResult* out);
void tnc_inverse_fd_free(tncInverseFDResult* r);

/* an open session */
typedef struct tncSession_ {
  uint64_t id;
  int nenv, nstate, nsens, nu, sensordata;
} tncSession;

/* create: states_out [nenv, nstate] (may be NULL) receives the reset states */
int tnc_session_create(tnClient* c, const char* model, int nenv, int keyframe, double noise,
                       uint64_t seed, int spec, int sensordata, tncSession* s, double* states_out);

/* step with ctrl [nenv, nu] (NULL: keep); outputs may be NULL */
int tnc_session_step(tnClient* c, const tncSession* s, const double* ctrl, int frame_skip,
                     double* states_out, double* sens_out, uint32_t* warnings);

/* reset environments where mask[i] (NULL: all) */
int tnc_session_reset(tnClient* c, const tncSession* s, const unsigned char* mask,
                      double* states_out);

/* get / set states under `spec` (0: the session's) with nstate columns */
int tnc_session_get_state(tnClient* c, const tncSession* s, int spec, int nstate, double* out);
int tnc_session_set_state(tnClient* c, const tncSession* s, int spec, int nstate,
                          const double* states);

int tnc_session_close(tnClient* c, const tncSession* s);

/* Stats and Health as raw responses (free with tnc_free) */
Torsion__V1__Response* tnc_stats(tnClient* c);
Torsion__V1__Response* tnc_health(tnClient* c);

#ifdef __cplusplus
}
#endif

#endif /* TORSION_CLIENT_H */

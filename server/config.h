/* server/config.h — torsiond's configuration: one table of options with defaults and help.
 *
 * Every option can be set in the config file (INI, read with libinih: `key = value` under
 * its [section]) and as a command-line flag (--key=value or --key value); flags override
 * the file. `torsiond --help` prints the table. */
#ifndef TORSIOND_CONFIG_H
#define TORSIOND_CONFIG_H

#include <stdint.h>

/* most tokens (client identities) the token file may list */
#define TD_MAX_TOKENS 64

/* the whole configuration */
typedef struct tdConfig_ {
  /* [listen] */
  char socket[512];                /* Unix socket path ("" = no Unix listener) */
  int tcp_port;                    /* 0 = no TCP listener */
  char tcp_address[256];           /* address the TCP listener binds */
  char token[256];                 /* auth token (Hello must carry it): the first of tokens */
  char token_file[512];            /* file holding the tokens, one per line */
  char tokens[TD_MAX_TOKENS][256]; /* every accepted token; quotas also apply per token */
  int ntokens;
  int max_connections;
  int insecure_loopback; /* TCP on a loopback address may run without a token */
  char tls_cert[512];    /* PEM certificate chain: TCP connections are TLS ("" = plain) */
  char tls_key[512];     /* PEM private key of tls_cert */

  /* [engine] */
  int workers;          /* 0 = number of cores */
  char model_root[512]; /* server-side model paths resolve under here ("" = off) */
  char tmp_dir[512];    /* where client asset blobs are staged for the compiler */
  int model_keep_warm;  /* keep a model loaded after its last connection lets go */
  int slice_us;         /* a rollout slice's work (by the model's step cost); 0: unsliced */
  int slice_yield_always; /* every slice goes back to the queue (tests: forces resuming) */
  int latency_work_us;    /* session and Forward/Inverse/FD calls up to this much work are the
                             latency class, taken ahead of bulk work */
  int latency_burst;      /* latency chunks taken in a row while bulk work waits */
  int bulk_nice;          /* nice steps added to the `workers` threads (not the express one) */

  /* [limits] */
  int64_t max_frame_bytes;
  int64_t max_model_bytes;
  int64_t max_batch;
  int64_t max_nstep;
  int64_t max_batch_steps;
  int64_t max_output_bytes;
  int max_models;
  int max_sessions_per_connection;
  int max_envs_per_session;
  int max_frame_skip;
  int max_inflight_per_connection;
  int64_t max_unsent_bytes_per_connection;
  int64_t max_queued_steps;   /* global: env-steps of unfinished work */
  int64_t max_unsent_bytes;   /* global: encoded bytes not yet written */
  int64_t frame_target_bytes; /* target size of one streamed result frame */

  /* [quotas]: what one connection may hold */
  int64_t max_queued_steps_per_connection; /* env-steps of its unfinished work */
  int max_models_per_connection;           /* models it references */
  int64_t max_model_memory;                /* estimated bytes of one model and its pool */
  int64_t max_model_memory_per_connection; /* estimated bytes of the models it references */
  int64_t max_model_memory_total;          /* estimated bytes of every loaded model */
  int max_envs_per_connection;             /* environments over all its sessions */

  /* [timeouts] */
  int default_deadline_ms;
  int max_deadline_ms;
  int drain_timeout_ms;
  int header_timeout_ms; /* a new connection must complete its first frame within this */
  int read_timeout_ms;   /* a frame whose first byte arrived must complete within this */
  int idle_timeout_ms;   /* a connection with nothing in flight and no traffic is closed */

  /* [log] */
  char log_level[16];

  /* [metrics]: the optional Prometheus listener (metrics_http.c) */
  char metrics_listen[300];     /* "HOST:PORT" or "[V6]:PORT"; "" = off */
  char metrics_token_file[512]; /* file whose first line is the bearer token ("" = none) */
  int metrics_max_connections;  /* simultaneous scrape connections */
  int metrics_timeout_ms;       /* a scrape connection is closed this long after accepting */
  char metrics_host[256];       /* metrics_listen's host (set by td_config_finish) */
  int metrics_port;             /* metrics_listen's port (set by td_config_finish) */
  char metrics_token[256];      /* read from metrics_token_file */
} tdConfig;

/* fill cfg with the built-in defaults */
void td_config_defaults(tdConfig* cfg);

/* read argv: --config FILE first (when present), then every other flag. Returns 0 to
 * go on, 1 when --help/--version printed and the program should exit 0, -1 on an error
 * (already printed). */
int td_config_load(tdConfig* cfg, int argc, char** argv);

/* check cross-option consistency (token required for a public TCP address, ...) and read
 * token_file; returns 0 or -1 after printing why */
int td_config_finish(tdConfig* cfg);

/* is this a loopback address */
int td_config_is_loopback(const char* addr);

/* print the option table with defaults to stdout */
void td_config_help(const char* argv0);

#endif /* TORSIOND_CONFIG_H */

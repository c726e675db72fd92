/* server/session.h — environment sessions kept on the server for RL trainers.
 *
 * A session holds nenv environments of one model as mjSTATE_INTEGRATION vectors (every
 * state component, so setting it into any worker's mjData and stepping is exactly
 * stepping one mjData in-process). Calls on one session run one at a time in arrival
 * order: a job waits in the session's queue until the previous one is fully released by
 * the workers. A session belongs to the connection that created it and is closed with it. */
#ifndef TORSIOND_SESSION_H
#define TORSIOND_SESSION_H

#include <stdint.h>

#include "server.h"

/* one session */
struct tdSession_ {
  uint64_t id;
  tdConn* conn; /* NULL once closed */
  tdSession* cprev;
  tdSession* cnext;
  tdModel* model;
  int nenv;
  int spec; /* spec of returned states */
  int nout; /* mj_stateSize(spec) */
  int nint; /* mj_stateSize(INTEGRATION) */
  int sensordata;
  int f32;
  int keyframe; /* -1: model defaults */
  double noise;
  uint64_t seed;
  double* state;    /* [nenv, nint] */
  uint64_t* nreset; /* resets per environment (noise stream index) */
  tdJob* active;    /* the call being run */
  tdJob* pend_head; /* calls waiting their turn */
  tdJob* pend_tail;
  int closed;
  int refs; /* 1 while open, plus one per job */
};

/* the connection is closing: close all its sessions */
void td_session_conn_closed(tdConn* c);

#endif /* TORSIOND_SESSION_H */

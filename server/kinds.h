/* server/kinds.h — the request kinds torsiond serves, in protocol order.
 *
 * A kind indexes the request table (td_req_kinds in requests.h: message case, name, handler,
 * whether it creates work, latency class) and the per-kind latency histograms of the
 * metrics. This header holds only the enumeration so that the metrics can size their arrays
 * without the handlers' types. */
#ifndef TORSIOND_KINDS_H
#define TORSIOND_KINDS_H

/* request kinds, in the order of the Request.body fields */
typedef enum tdKind_ {
  TD_KIND_HELLO,
  TD_KIND_LOAD_MODEL,
  TD_KIND_MODEL_INFO,
  TD_KIND_UNLOAD_MODEL,
  TD_KIND_ROLLOUT,
  TD_KIND_FORWARD,
  TD_KIND_CREATE_SESSION,
  TD_KIND_SESSION_STEP,
  TD_KIND_SESSION_RESET,
  TD_KIND_SESSION_GET_STATE,
  TD_KIND_SESSION_SET_STATE,
  TD_KIND_CLOSE_SESSION,
  TD_KIND_STATS,
  TD_KIND_HEALTH,
  TD_KIND_CANCEL,
  TD_KIND_INVERSE,
  TD_KIND_TRANSITION_FD,
  TD_KIND_INVERSE_FD,
  TD_NKIND
} tdKind;

#endif /* TORSIOND_KINDS_H */

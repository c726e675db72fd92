/* fuzz/fuzz_frame.c — libFuzzer target: torsiond's framing, request decoding and request
 * validation, on the loop-thread code the daemon runs for every frame.
 *
 * The input is the byte stream of one connection: 4-byte big-endian lengths and protobuf
 * payloads. It is cut into frames by td_frame_split (as connection.c does) and each frame
 * goes through td_dispatch_frame: protobuf decoding, the common checks, and the request's
 * handler with all its validation against a registry holding one small model
 * (frame_model.xml, registered under FUZZ_HANDLE). Where a
 * handler would queue work, the stubs (frame_stubs.c) refuse the job, so the request ends
 * on its ordinary rejection path: no libuv, no worker threads. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "server.h"

/* the handle the loaded model is registered under (64 hex digits, like a real one) */
#define FUZZ_HANDLE "f00df00df00df00df00df00df00df00df00df00df00df00df00df00df00df00d"

/* the server the frames reach (one per process) */
static tdServer srv;

/* (re)register the model; UnloadModel may have removed it during the previous input */
static void ensure_model(void) {
  if (td_registry_find(&srv.reg, FUZZ_HANDLE)) {
    return;
  }
  char error[1000];
  mjModel* m = mj_loadXML(FUZZ_FRAME_MODEL, NULL, error, sizeof(error));
  if (!m) {
    fprintf(stderr, "fuzz_frame: the built-in model does not load: %s\n", error);
    abort();
  }
  tdModel* mod = td_model_create(m, 1, FUZZ_HANDLE, error, sizeof(error));
  if (!mod) {
    fprintf(stderr, "fuzz_frame: td_model_create: %s\n", error);
    abort();
  }
  td_registry_add(&srv.reg, mod);
}

/* the server's defaults, quiet logs */
int LLVMFuzzerInitialize(int* argc, char*** argv) {
  (void)argc;
  (void)argv;
  td_config_defaults(&srv.cfg);
  td_log_set_level(TD_LOG_ERROR);
  srv.nworkers = 1;
  srv.start_s = td_now_s();
  ensure_model();
  return 0;
}

/* one input: one connection's bytes, frame by frame */
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ensure_model();
  tdConn conn;
  memset(&conn, 0, sizeof(conn));
  conn.srv = &srv;
  conn.authenticated = 1;
  size_t pos = 0;
  while (!conn.closing) {
    uint32_t flen = 0;
    int state = td_frame_split(data + pos, size - pos, srv.cfg.max_frame_bytes, &flen);
    if (state == TD_FRAME_TOO_LONG) {
      td_conn_send_error(&conn, td_peek_id(data + pos + 4, size - pos - 4), TD_E_BAD_FRAME,
                         "frame of %u bytes exceeds max_frame_bytes", flen);
      break;
    }
    if (state == TD_FRAME_MORE) {
      break;
    }

    // a copy of exactly the frame, so that a read past its end is caught
    uint8_t* frame = malloc(flen ? flen : 1);
    if (!frame) {
      break;
    }
    memcpy(frame, data + pos + 4, flen);
    pos += 4 + (size_t)flen;
    td_dispatch_frame(&conn, frame, flen);
    free(frame);
  }
  return 0;
}

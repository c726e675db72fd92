/* fuzz/frame_stubs.c — the parts of torsiond that fuzz_frame.c leaves out: the libuv
 * connection, the jobs and the workers. What the request handlers call of them is answered
 * here without a loop or a thread:
 *   - response frames are packed by the real code and dropped (td_conn_write frees them);
 *   - td_job_new refuses (NULL), so a handler that validated its request rejects it at the
 *     point where work would be queued, through its ordinary error path;
 *   - uv_queue_work and uv_fileno fail, libuv itself is not linked. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "job.h"
#include "server.h"

/* frames "written" so far (the target checks nothing else of them) */
size_t fuzz_frames_out;

/* drop a frame the server built */
void td_conn_write(tdConn* c, char* frame, size_t len) {
  (void)c;
  (void)len;
  fuzz_frames_out++;
  free(frame);
}

/* format and pack an error frame as connection.c does, then drop it */
void td_conn_send_error(tdConn* c, uint64_t id, int code, const char* fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  char* frame;
  size_t len;
  if (td_pack_error(id, code, msg, &frame, &len) == 0) {
    td_conn_write(c, frame, len);
  }
}

/* closing stops the dispatch of further frames */
void td_conn_close(tdConn* c, int graceful) {
  (void)graceful;
  c->closing = 1;
}

/* no jobs: every handler that gets this far rejects with "out of memory" */
tdJob* td_job_new(tdConn* c, tdReq* req, const tdJobOps* ops, int kind) {
  (void)c;
  (void)req;
  (void)ops;
  (void)kind;
  return NULL;
}

/* no job is ever in flight */
tdJob* td_job_find(tdConn* c, uint64_t id) {
  (void)c;
  (void)id;
  return NULL;
}

/* the rest of the job and worker interface is unreachable without a job */
void td_job_submit(tdJob* job, int nitems, int chunk_items, int hold) {
  (void)job;
  (void)nitems;
  (void)chunk_items;
  (void)hold;
  __builtin_trap();
}
void td_job_push(tdJob* job) {
  (void)job;
  __builtin_trap();
}
void td_job_chunk_range(const tdJob* job, int k, int* first, int* count) {
  (void)job;
  (void)k;
  (void)first;
  (void)count;
  __builtin_trap();
}
int td_job_should_stop(tdJob* job, tdCompletion* c) {
  (void)job;
  (void)c;
  __builtin_trap();
}
int td_job_chunk_done(tdJob* job) {
  (void)job;
  __builtin_trap();
}
int td_job_should_yield(tdJob* job, int always) {
  (void)job;
  (void)always;
  __builtin_trap();
}
int td_job_run_items(tdJob* job, mjData* d, int e0, int ne, tdItemFn item, void* out,
                     uint32_t* warnings, int64_t steps_per_item, tdCompletion* c) {
  (void)warnings;
  (void)steps_per_item;
  (void)job;
  (void)d;
  (void)e0;
  (void)ne;
  (void)item;
  (void)out;
  (void)c;
  __builtin_trap();
}
void td_job_pack_chunk(tdJob* job, tdResp* r, tdCompletion* c) {
  (void)job;
  (void)r;
  (void)c;
  __builtin_trap();
}
void td_job_fail(tdJob* job, int code, const char* fmt, ...) {
  (void)job;
  (void)code;
  (void)fmt;
  __builtin_trap();
}
void td_job_on_completion(tdServer* srv, tdCompletion* c) {
  (void)srv;
  (void)c;
  __builtin_trap();
}
void td_completion_error(tdCompletion* c, int code, const char* fmt, ...) {
  (void)c;
  (void)code;
  (void)fmt;
  __builtin_trap();
}
int td_engine_run(const mjModel* m, mjData* d, tnRunFn fn, void* arg) {
  (void)m;
  (void)d;
  (void)fn;
  (void)arg;
  __builtin_trap();
}
int td_engine_failed(void) {
  __builtin_trap();
}
void td_engine_errors_to(char* buf, size_t size) {
  (void)buf;
  (void)size;
  __builtin_trap();
}

/* an empty scheduler */
void td_sched_counts(tdScheduler* s, uint64_t* queued, int* running) {
  (void)s;
  *queued = 0;
  *running = 0;
}

/* the thread pool refuses work (libuv is not linked) */
int uv_queue_work(uv_loop_t* loop, uv_work_t* req, uv_work_cb work_cb,
                  uv_after_work_cb after_work_cb) {
  (void)loop;
  (void)req;
  (void)work_cb;
  (void)after_work_cb;
  return -1;
}

/* no descriptor behind the fuzzed connection (the Unix-socket peer check finds no user) */
int uv_fileno(const uv_handle_t* handle, uv_os_fd_t* fd) {
  (void)handle;
  *fd = -1;
  return UV_EBADF;
}

/* install_client.c — a user of the installed C client library (libtorsion_client, built
 * with `pkg-config --cflags --libs torsion-client` only): connect to a torsiond, load an
 * MJCF file from memory, take the model's reset state from a one-environment session, roll
 * it out NSTEP steps under load_step.c's control pattern and print the final time, qpos and
 * qvel in load_step.c's format, so the test can match them against the in-process run.
 * Usage: install_client ADDRESS MODEL.xml NSTEP */
#include <stdio.h>
#include <stdlib.h>

#include <torsion/torsion_client.h>

/* print n numbers on one line after a label (load_step.c's format) */
static void print_vec(const char* label, const double* v, int n) {
  printf("%s", label);
  for (int i = 0; i < n; i++) printf(" %.12g", v[i]);
  printf("\n");
}

/* report the client's last error and fail */
static int fail(tnClient* c, const char* what) {
  fprintf(stderr, "%s: %s\n", what, tnc_error(c));
  tnc_close(c);
  return 1;
}

int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s ADDRESS MODEL.xml NSTEP\n", argv[0]);
    return 2;
  }
  int nstep = atoi(argv[3]);
  char err[256];
  tnClient* c = tnc_connect(argv[1], err, sizeof(err));
  if (!c) {
    fprintf(stderr, "connect: %s\n", err);
    return 1;
  }
  tncHello hello;
  if (tnc_hello(c, NULL, &hello))
    return fail(c, "hello");
  printf("protocol %u mujoco %u\n", hello.protocol_version, hello.mujoco_version);

  /* the model's text, sent to the daemon */
  char* xml = tnc_read_file(argv[2], NULL);
  if (!xml) {
    fprintf(stderr, "cannot read %s\n", argv[2]);
    tnc_close(c);
    return 1;
  }
  char handle[65];
  int cached = 0;
  int rc = tnc_load_xml(c, xml, NULL, 0, handle, &cached);
  free(xml);
  if (rc)
    return fail(c, "load");
  tncModelInfo info;
  if (tnc_model_info(c, handle, &info))
    return fail(c, "model_info");
  printf("nq %d nv %d nu %d nbody %d\n", info.nq, info.nv, info.nu, info.nbody);

  /* the reset state (mjSTATE_FULLPHYSICS: time, qpos, qvel, act, ...) */
  int nstate = info.nstate_full;
  double* state0 = malloc(sizeof(double) * nstate);
  tncSession s;
  if (tnc_session_create(c, handle, 1, -1, 0.0, 0, 0, 0, &s, state0))
    return fail(c, "session");
  if (tnc_session_close(c, &s))
    return fail(c, "session_close");

  /* load_step.c's controls: ctrl[t][i] = 0.5 * ((t + i) % 3 - 1) */
  int nu = info.nu;
  double* ctrl = malloc(sizeof(double) * (nstep * nu + 1));
  for (int t = 0; t < nstep; t++)
    for (int i = 0; i < nu; i++) ctrl[t * nu + i] = 0.5 * ((t + i) % 3 - 1);

  tncRollout q = {.model = handle,
                  .spec = 0,
                  .B = 1,
                  .nstate = nstate,
                  .nu = nu,
                  .nstep = nstep,
                  .state0 = state0,
                  .ctrl = ctrl,
                  .ctrl_b = 1,
                  .ctrl_t = nstep,
                  .final_only = 1};
  tncRolloutResult r;
  if (tnc_rollout(c, &q, &r))
    return fail(c, "rollout");
  const double* last = (const double*)r.states + (size_t)(r.nrec - 1) * r.nstate;
  printf("time %.12g\n", last[0]);
  print_vec("qpos", last + 1, info.nq);
  print_vec("qvel", last + 1 + info.nq, info.nv);

  tnc_rollout_free(&r);
  free(ctrl);
  free(state0);
  tnc_unload(c, handle);
  tnc_close(c);
  return 0;
}

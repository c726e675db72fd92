/* tools/sim_main.c — torsion-sim, the in-process command-line tool.
 *
 * Subcommands: info, forward, rollout, speed, dump, contacts, efc, inverse, transitionfd,
 * inversefd. Arrays are .npy files. Every later
 * check (tests, benchmarks, the daemon's equivalence tests) runs through this tool. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

/* usage text */
static const char* usage =
    "usage: torsion-sim COMMAND MODEL.xml [options]\n"
    "commands:\n"
    "  info MODEL.xml                          sizes, masses and qpos0 as JSON\n"
    "  forward MODEL.xml --state S.npy [--ctrl C.npy] --out QACC.npy [--sensordata S.npy]\n"
    "  rollout MODEL.xml --state S.npy [--ctrl C.npy] --nstep N --out OUT.npy [--threads T]\n"
    "               [--sensordata S.npy]   sensordata [B, nsensordata] / [B, N, nsensordata]\n"
    "  speed MODEL.xml [--nstep N] [--threads T] [--ctrlnoise X] [--profile]\n"
    "  dump MODEL.xml --fields a,b,c --out PREFIX [--state S.npy] [--ctrl C.npy]\n"
    "  contacts MODEL.xml --state S.npy --out PREFIX   active contacts per state\n"
    "  efc MODEL.xml --state S.npy --out PREFIX   constraint rows per state (efc_*, dense J,\n"
    "               solver iterations, efc_AR with PGS)\n"
    "  inverse MODEL.xml --state S.npy --qacc A.npy --out QFRC.npy   qfrc_inverse [B, nv]\n"
    "  transitionfd MODEL.xml --state S.npy [--ctrl C.npy] [--eps E] [--centered]\n"
    "               --out PREFIX   PREFIX_A [B,2nv+na,2nv+na], PREFIX_B [B,2nv+na,nu],\n"
    "               with sensors PREFIX_C [B,ns,2nv+na], PREFIX_D [B,ns,nu] (ns = nsensordata)\n"
    "  inversefd MODEL.xml --state S.npy --qacc A.npy [--eps E] [--actuation] --out PREFIX\n"
    "               PREFIX_DfDq/DfDv/DfDa [B,nv,nv] (row i: d/d input i), PREFIX_DmDq [B,nv,nC],\n"
    "               with sensors PREFIX_DsDq/DsDv/DsDa [B,nv,nsensordata]\n"
    "options:\n"
    "  --disable FLAGS     comma list of MuJoCo disable flags (constraint,contact,gravity,...)\n"
    "  --enable FLAGS      comma list of MuJoCo enable flags (energy,...)\n"
    "  --integrator NAME   euler | rk4 | implicit | implicitfast\n"
    "  --threads T         OpenMP threads (results identical for every T)\n"
    "  --eps E             finite-difference step (default 1e-6); --centered: centered\n"
    "  --option K=V,...    override mjOption fields: solver=pgs|cg|newton, cone=pyramidal|\n"
    "                      elliptic, jacobian=dense|sparse|auto, iterations, ls_iterations,\n"
    "                      noslip_iterations, tolerance, ls_tolerance, noslip_tolerance,\n"
    "                      impratio, timestep, o_margin\n"
    "  --spec SPEC         state layout of --state and outputs: fullphysics (default),\n"
    "                      integration (adds warmstart and user inputs), physics, or a mask\n"
    "  --vfs NAME=PATH     put the file PATH into an mjVFS as NAME (repeatable); the model\n"
    "                      name and every file it references are looked up there first\n"
    "  --vfs-dir DIR       put every file under DIR into the VFS, named by its path in DIR\n"
    "  --vfs-only          read no file outside the VFS\n"
    "  --root DIR          read files only under DIR (symlinks and '..' resolved)\n"
    "  --max-bytes N       limit on the bytes of all files one load reads\n"
    "states are [B, nstate] in the --spec layout; arrays are float64 .npy\n";

/* parse an integer option value */
static int parse_int(const char* s, int* out) {
  char* end;
  long v = strtol(s, &end, 10);
  if (*s == '\0' || *end != '\0' || v < -2147483647L || v > 2147483647L) {
    return -1;
  }
  *out = (int)v;
  return 0;
}

/* parse a double option value */
static int parse_double(const char* s, double* out) {
  char* end;
  *out = strtod(s, &end);
  return (*s == '\0' || *end != '\0') ? -1 : 0;
}

/* fill args from argv[2..]; returns 0 or an exit status */
static int parse_args(int argc, char** argv, simArgs* a) {
  memset(a, 0, sizeof(*a));
  a->threads = 1;
  a->nstep = -1;
  a->eps = 1e-6;
  a->spec = mjSTATE_FULLPHYSICS;
  for (int i = 2; i < argc; i++) {
    const char* k = argv[i];
    const char* v = (i + 1 < argc) ? argv[i + 1] : NULL;

    // flags without a value
    if (!strcmp(k, "--centered")) {
      a->centered = 1;
      continue;
    }
    if (!strcmp(k, "--actuation")) {
      a->actuation = 1;
      continue;
    }
    if (!strcmp(k, "--profile")) {
      a->profile = 1;
      continue;
    }
    if (!strcmp(k, "--vfs-only")) {
      a->vfs_only = 1;
      continue;
    }
    if (k[0] != '-') {
      if (a->model) {
        return sim_fail("unexpected argument '%s'", k);
      }
      a->model = k;
      continue;
    }
    if (!v) {
      return sim_fail("option %s needs a value", k);
    }
    i++;

    // options with a value
    if (!strcmp(k, "--state")) a->state = v;
    else if (!strcmp(k, "--ctrl")) a->ctrl = v;
    else if (!strcmp(k, "--qacc")) a->qacc = v;
    else if (!strcmp(k, "--out")) a->out = v;
    else if (!strcmp(k, "--sensordata")) a->sensordata = v;
    else if (!strcmp(k, "--fields")) a->fields = v;
    else if (!strcmp(k, "--disable")) a->disable = v;
    else if (!strcmp(k, "--enable")) a->enable = v;
    else if (!strcmp(k, "--integrator")) a->integrator = v;
    else if (!strcmp(k, "--option")) a->option = v;
    else if (!strcmp(k, "--root"))
      a->root = v;
    else if (!strcmp(k, "--vfs-dir"))
      a->vfs_dir = v;
    else if (!strcmp(k, "--vfs")) {
      if (a->nvfs == 64 || !strchr(v, '=')) {
        return sim_fail("--vfs takes NAME=PATH (at most 64 times), got '%s'", v);
      }
      a->vfs[a->nvfs++] = v;
    } else if (!strcmp(k, "--max-bytes")) {
      char* end;
      a->max_bytes = strtoll(v, &end, 10);
      if (*v == '\0' || *end != '\0' || a->max_bytes <= 0) {
        return sim_fail("--max-bytes must be a positive integer, got '%s'", v);
      }
    } else if (!strcmp(k, "--spec")) {
      if (!strcmp(v, "fullphysics")) a->spec = mjSTATE_FULLPHYSICS;
      else if (!strcmp(v, "integration")) a->spec = mjSTATE_INTEGRATION;
      else if (!strcmp(v, "physics")) a->spec = mjSTATE_PHYSICS;
      else if (parse_int(v, &a->spec) || a->spec <= 0 || (a->spec & ~mjSTATE_INTEGRATION)) {
        return sim_fail("--spec must be fullphysics, integration, physics or a valid mjtState "
                        "bitmask, got '%s'", v);
      }
    } else if (!strcmp(k, "--nstep")) {
      if (parse_int(v, &a->nstep) || a->nstep < 0) {
        return sim_fail("--nstep must be a non-negative integer, got '%s'", v);
      }
    } else if (!strcmp(k, "--threads")) {
      if (parse_int(v, &a->threads) || a->threads < 1 || a->threads > 1024) {
        return sim_fail("--threads must be an integer in [1, 1024], got '%s'", v);
      }
    } else if (!strcmp(k, "--seed")) {
      if (parse_int(v, &a->seed)) {
        return sim_fail("--seed must be an integer, got '%s'", v);
      }
    } else if (!strcmp(k, "--ctrlnoise")) {
      if (parse_double(v, &a->ctrlnoise) || !(a->ctrlnoise >= 0)) {
        return sim_fail("--ctrlnoise must be a non-negative number, got '%s'", v);
      }
    } else if (!strcmp(k, "--eps")) {
      if (parse_double(v, &a->eps) || !(a->eps > 0)) {
        return sim_fail("--eps must be a positive number, got '%s'", v);
      }
    } else {
      return sim_fail("unknown option '%s'", k);
    }
  }
  if (!a->model) {
    return sim_fail("missing MODEL.xml");
  }
  return 0;
}

/* dispatch */
int main(int argc, char** argv) {
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    fputs(usage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 1 : 0;
  }
  sim_install_handlers();
  simArgs args;
  int rc = parse_args(argc, argv, &args);
  if (rc) {
    return rc;
  }
  const char* cmd = argv[1];
  if (!strcmp(cmd, "info")) rc = cmd_info(&args);
  else if (!strcmp(cmd, "forward")) rc = cmd_forward(&args);
  else if (!strcmp(cmd, "rollout")) rc = cmd_rollout(&args);
  else if (!strcmp(cmd, "speed")) rc = cmd_speed(&args);
  else if (!strcmp(cmd, "dump")) rc = cmd_dump(&args);
  else if (!strcmp(cmd, "contacts")) rc = cmd_contacts(&args);
  else if (!strcmp(cmd, "efc")) rc = cmd_efc(&args);
  else if (!strcmp(cmd, "inverse")) rc = cmd_inverse(&args);
  else if (!strcmp(cmd, "transitionfd")) rc = cmd_transitionfd(&args);
  else if (!strcmp(cmd, "inversefd")) rc = cmd_inversefd(&args);
  else return sim_fail("unknown command '%s' (see torsion-sim --help)", cmd);

  // an engine error during the run makes the command fail even if it produced output
  if (rc == 0 && sim_engine_errors() > 0) {
    return sim_fail("%d engine error(s) reported during '%s'", sim_engine_errors(), cmd);
  }
  return rc;
}

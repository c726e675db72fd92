/* tools/sim_main.c — torsion-sim, the in-process command-line tool.
 *
 * Subcommands: info, forward, rollout, speed, dump, contacts, efc, islands, inverse,
 * transitionfd, inversefd. Arrays are .npy files. Every later check (tests, benchmarks, the
 * daemon's equivalence tests) runs through this tool. */
#include <getopt.h>
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
    "  islands MODEL.xml --state S.npy --out OUT.json   constraint islands per state\n"
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

/* the long options; values past 255 identify those without a short form */
enum {
  OPT_STATE = 256,
  OPT_CTRL,
  OPT_QACC,
  OPT_OUT,
  OPT_SENSORDATA,
  OPT_FIELDS,
  OPT_DISABLE,
  OPT_ENABLE,
  OPT_INTEGRATOR,
  OPT_OPTION,
  OPT_ROOT,
  OPT_VFS_DIR,
  OPT_VFS,
  OPT_VFS_ONLY,
  OPT_MAX_BYTES,
  OPT_SPEC,
  OPT_NSTEP,
  OPT_THREADS,
  OPT_SEED,
  OPT_CTRLNOISE,
  OPT_EPS,
  OPT_CENTERED,
  OPT_ACTUATION,
  OPT_PROFILE
};
static const struct option long_options[] = {
    {"help", no_argument, NULL, 'h'},
    {"state", required_argument, NULL, OPT_STATE},
    {"ctrl", required_argument, NULL, OPT_CTRL},
    {"qacc", required_argument, NULL, OPT_QACC},
    {"out", required_argument, NULL, OPT_OUT},
    {"sensordata", required_argument, NULL, OPT_SENSORDATA},
    {"fields", required_argument, NULL, OPT_FIELDS},
    {"disable", required_argument, NULL, OPT_DISABLE},
    {"enable", required_argument, NULL, OPT_ENABLE},
    {"integrator", required_argument, NULL, OPT_INTEGRATOR},
    {"option", required_argument, NULL, OPT_OPTION},
    {"root", required_argument, NULL, OPT_ROOT},
    {"vfs-dir", required_argument, NULL, OPT_VFS_DIR},
    {"vfs", required_argument, NULL, OPT_VFS},
    {"vfs-only", no_argument, NULL, OPT_VFS_ONLY},
    {"max-bytes", required_argument, NULL, OPT_MAX_BYTES},
    {"spec", required_argument, NULL, OPT_SPEC},
    {"nstep", required_argument, NULL, OPT_NSTEP},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"seed", required_argument, NULL, OPT_SEED},
    {"ctrlnoise", required_argument, NULL, OPT_CTRLNOISE},
    {"eps", required_argument, NULL, OPT_EPS},
    {"centered", no_argument, NULL, OPT_CENTERED},
    {"actuation", no_argument, NULL, OPT_ACTUATION},
    {"profile", no_argument, NULL, OPT_PROFILE},
    {NULL, 0, NULL, 0}};

/* one option's value into args; 0, or an exit status after printing why */
static int take_option(int opt, const char* v, simArgs* a) {
  switch (opt) {
    case OPT_STATE: a->state = v; break;
    case OPT_CTRL: a->ctrl = v; break;
    case OPT_QACC: a->qacc = v; break;
    case OPT_OUT: a->out = v; break;
    case OPT_SENSORDATA: a->sensordata = v; break;
    case OPT_FIELDS: a->fields = v; break;
    case OPT_DISABLE: a->disable = v; break;
    case OPT_ENABLE: a->enable = v; break;
    case OPT_INTEGRATOR: a->integrator = v; break;
    case OPT_OPTION: a->option = v; break;
    case OPT_ROOT: a->root = v; break;
    case OPT_VFS_DIR: a->vfs_dir = v; break;
    case OPT_VFS_ONLY: a->vfs_only = 1; break;
    case OPT_CENTERED: a->centered = 1; break;
    case OPT_ACTUATION: a->actuation = 1; break;
    case OPT_PROFILE: a->profile = 1; break;
    case OPT_VFS:
      if (a->nvfs == 64 || !strchr(v, '=')) {
        return sim_fail("--vfs takes NAME=PATH (at most 64 times), got '%s'", v);
      }
      a->vfs[a->nvfs++] = v;
      break;
    case OPT_MAX_BYTES: {
      char* end;
      a->max_bytes = strtoll(v, &end, 10);
      if (*v == '\0' || *end != '\0' || a->max_bytes <= 0) {
        return sim_fail("--max-bytes must be a positive integer, got '%s'", v);
      }
      break;
    }
    case OPT_SPEC:
      if (!strcmp(v, "fullphysics")) a->spec = mjSTATE_FULLPHYSICS;
      else if (!strcmp(v, "integration")) a->spec = mjSTATE_INTEGRATION;
      else if (!strcmp(v, "physics")) a->spec = mjSTATE_PHYSICS;
      else if (parse_int(v, &a->spec) || a->spec <= 0 || (a->spec & ~mjSTATE_INTEGRATION)) {
        return sim_fail("--spec must be fullphysics, integration, physics or a valid mjtState "
                        "bitmask, got '%s'", v);
      }
      break;
    case OPT_NSTEP:
      if (parse_int(v, &a->nstep) || a->nstep < 0) {
        return sim_fail("--nstep must be a non-negative integer, got '%s'", v);
      }
      break;
    case OPT_THREADS:
      if (parse_int(v, &a->threads) || a->threads < 1 || a->threads > 1024) {
        return sim_fail("--threads must be an integer in [1, 1024], got '%s'", v);
      }
      break;
    case OPT_SEED:
      if (parse_int(v, &a->seed)) {
        return sim_fail("--seed must be an integer, got '%s'", v);
      }
      break;
    case OPT_CTRLNOISE:
      if (parse_double(v, &a->ctrlnoise) || !(a->ctrlnoise >= 0)) {
        return sim_fail("--ctrlnoise must be a non-negative number, got '%s'", v);
      }
      break;
    case OPT_EPS:
      if (parse_double(v, &a->eps) || !(a->eps > 0)) {
        return sim_fail("--eps must be a positive number, got '%s'", v);
      }
      break;
    default: return sim_fail("internal error: option %d not handled", opt);
  }
  return 0;
}

/* fill args from the command's arguments (argv[0] is the command; options and the model in
 * any order, "--" ends the options); returns 0, -1 after printing the usage (--help), or an
 * exit status */
static int parse_args(int argc, char** argv, simArgs* a) {
  memset(a, 0, sizeof(*a));
  a->threads = 1;
  a->nstep = -1;
  a->eps = 1e-6;
  a->spec = mjSTATE_FULLPHYSICS;
  opterr = 0;  // the messages below name the option and the tool
  optind = 0;  // 0: GNU getopt initializes itself afresh
  int opt, rc;
  while ((opt = getopt_long(argc, argv, ":h", long_options, NULL)) != -1) {
    const char* given = argv[optind - 1];
    if (opt == 'h') {
      fputs(usage, stdout);
      return -1;
    }
    if (opt == ':') {
      return sim_fail("option %s needs a value (see torsion-sim --help)", given);
    }
    if (opt == '?') {
      if (optopt) {
        return sim_fail("unknown option '-%c' (see torsion-sim --help)", optopt);
      }
      return sim_fail("unknown option '%s' (see torsion-sim --help)", given);
    }
    if ((rc = take_option(opt, optarg, a))) {
      return rc;
    }
  }
  for (; optind < argc; optind++) {
    if (a->model) {
      return sim_fail("unexpected argument '%s'", argv[optind]);
    }
    a->model = argv[optind];
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
  int rc = parse_args(argc - 1, argv + 1, &args);
  if (rc) {
    return rc < 0 ? 0 : rc;
  }
  const char* cmd = argv[1];
  if (!strcmp(cmd, "info")) rc = cmd_info(&args);
  else if (!strcmp(cmd, "forward")) rc = cmd_forward(&args);
  else if (!strcmp(cmd, "rollout")) rc = cmd_rollout(&args);
  else if (!strcmp(cmd, "speed")) rc = cmd_speed(&args);
  else if (!strcmp(cmd, "dump")) rc = cmd_dump(&args);
  else if (!strcmp(cmd, "contacts")) rc = cmd_contacts(&args);
  else if (!strcmp(cmd, "efc")) rc = cmd_efc(&args);
  else if (!strcmp(cmd, "islands")) rc = cmd_islands(&args);
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

/* clients/cli/cli.h — shared pieces of the `torsion` command-line client: global options,
 * connecting, resolving a model argument (file or handle), reading states, and the
 * subcommands. */
#ifndef TORSION_CLI_H
#define TORSION_CLI_H

#include <err.h>
#include <getopt.h>
#include <jansson.h>

#include "npy.h"
#include "torsion_client.h"

/* global options */
typedef struct cliOpts_ {
  const char* address; /* "unix:PATH", "tcp:HOST:PORT" or "tls:HOST:PORT" */
  const char* tls_ca;  /* CA certificates (PEM) for "tls:"; NULL: $TORSION_TLS_CA or the system's */
  const char* token;
  int argc; /* the subcommand's arguments (argv[0] = its name) */
  char** argv;
} cliOpts;

/* print "torsion: <reason>" to stderr with the C library's warnx (which names the program)
 * and evaluate to exit status 1 */
#define cli_fail(...) __extension__({ warnx(__VA_ARGS__); 1; })

/* connect and say Hello (with the token when given); NULL after printing why */
tnClient* cli_connect(const cliOpts* o);

/* a model argument: a 64-hex handle is used as is; otherwise the file is read and loaded
 * with the files it references as assets. 0 or -1 after printing why. */
int cli_model(tnClient* c, const char* arg, char handle[65]);

/* a JSON number (jansson), null when v is not finite; rounded to `decimals` places when
 * decimals >= 0 (measurements), else kept whole */
json_t* cli_json_real(double v, int decimals);

/* print one JSON document on a line of stdout (reals with `digits` significant digits: 17
 * round-trips every double, 15 prints rounded measurements cleanly) and free it; 0, or 1
 * after printing why */
int cli_json_print(json_t* doc, int digits);

/* parse a non-negative integer option value */
int cli_int(const char* s, long long* out);

/* one option of a subcommand, given to its cliTakeFn: `opt` is the option's val in its
 * struct option table, `v` its value (NULL when it takes none); 0, or 1 after printing why */
typedef int (*cliTakeFn)(void* ctx, int opt, const char* v);

/* parse a subcommand's arguments with getopt_long (options and the MODEL in any order,
 * "--name value" or "--name=value", "--" ends the options): each option goes to take, the one
 * positional argument (if allowed: model != NULL) into *model. -h/--help prints help (the
 * general usage when NULL) to stdout. Returns 0, -1 after the help, or 1 after printing why. */
int cli_getopt(const cliOpts* o, const struct option* longopts, cliTakeFn take, void* ctx,
               const char** model, const char* help);

/* what the array subcommands (rollout, forward, inverse, transitionfd, inversefd) work on:
 * the connection, the resolved model, and the states with their other inputs */
typedef struct cliJob_ {
  tnClient* c;
  char handle[65];
  tncModelInfo info;
  int nstate;     /* per state, in the layout asked for */
  long B;         /* states */
  npyArray st, in; /* states [B, nstate]; the command's other input (controls, accelerations) */
} cliJob;

/* connect, resolve the model argument and ask its sizes, then read the states [B, nstate]
 * of layout `spec` from a .npy file (1-D: B = 1); 0, or 1 after printing why. Close the job
 * either way. */
int cli_job_open(const cliOpts* o, const char* model, int spec, const char* states, cliJob* j);

/* release the job's arrays and connection */
void cli_job_close(cliJob* j);

/* subcommands */
int cmd_load(const cliOpts* o);
int cmd_info(const cliOpts* o);
int cmd_unload(const cliOpts* o);
int cmd_stats(const cliOpts* o);
int cmd_health(const cliOpts* o);
int cmd_rollout(const cliOpts* o);
int cmd_forward(const cliOpts* o);
int cmd_bench(const cliOpts* o);
int cmd_inverse(const cliOpts* o);
int cmd_transitionfd(const cliOpts* o);
int cmd_inversefd(const cliOpts* o);

#endif /* TORSION_CLI_H */

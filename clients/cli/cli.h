/* clients/cli/cli.h — shared pieces of the `torsion` command-line client: global options,
 * connecting, resolving a model argument (file or handle) and the subcommands. */
#ifndef TORSION_CLI_H
#define TORSION_CLI_H

#include "torsion_client.h"

/* global options */
typedef struct cliOpts_ {
  const char* address; /* "unix:PATH" or "tcp:HOST:PORT" */
  const char* token;
  int argc; /* the subcommand's arguments (argv[0] = its name) */
  char** argv;
} cliOpts;

/* print "torsion: <message>" to stderr; returns exit status 1 */
int cli_fail(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

/* connect and say Hello (with the token when given); NULL after printing why */
tnClient* cli_connect(const cliOpts* o);

/* a model argument: a 64-hex handle is used as is; otherwise the file is read and loaded
 * with the files it references as assets. 0 or -1 after printing why. */
int cli_model(tnClient* c, const char* arg, char handle[65]);

/* read a whole file; NULL when it cannot */
char* cli_read_file(const char* path, size_t* len);

/* parse a non-negative integer option value */
int cli_int(const char* s, long long* out);

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

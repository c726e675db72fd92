/* cb_errors.c — MuJoCo's error, warning and logging behavior as a program sees it: what
 * mju_error does with no handler (message, log file, exit status), with a handler that
 * returns and with one that longjmps; mju_warning and mj_warning; the log handler, its
 * configuration, topics, mju_message and mju_writeLog; mju_clearHandlers. Written against
 * MuJoCo's C API only. Usage: cb_errors MODE [MODEL.xml] (modes: see main). */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include MJ_INCLUDE

static jmp_buf env;

/* a legacy handler that prints what it got and returns */
static void print_handler(const char* msg) {
  printf("handler [%s]\n", msg);
  fflush(stdout);
}

/* a legacy handler that leaves mju_error by longjmp */
static void jump_handler(const char* msg) {
  printf("jumping [%s]\n", msg);
  longjmp(env, 1);
}

/* a legacy handler that keeps the start of the message (numbers after it may differ) */
static char kept[64];
static void keep_handler(const char* msg) {
  snprintf(kept, sizeof(kept), "%.40s", msg);
}

/* a log handler that prints every field it can compare */
static void log_handler(const mjLogMessage* m) {
  printf("log level %d topic %d subject [%s] body [%s] line %d\n", m->level, m->topic,
         m->subject, m->body ? m->body : "-", m->line);
}

/* print a file (the log) */
static void print_file(const char* path) {
  FILE* f = fopen(path, "r");
  printf("file %s %s\n", path, f ? "exists" : "missing");
  if (!f) return;
  char line[2048];
  while (fgets(line, sizeof(line), f)) printf("| %s", line);
  fclose(f);
}

static mjModel* load(int argc, char** argv) {
  char error[1000] = "";
  mjModel* m = argc > 2 ? mj_loadXML(argv[2], NULL, error, sizeof(error)) : NULL;
  if (!m) {
    printf("load error: %s\n", error);
    exit(3);
  }
  return m;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  printf("mode %s\n", mode);

  // no handler: message, log file, exit status 1; nothing after it runs
  if (!strcmp(mode, "error_default")) {
    mju_error("boom %d in %s", 7, "qpos");
    printf("after\n");
  }

  // a handler that returns: mju_error returns too
  else if (!strcmp(mode, "error_return")) {
    mju_user_error = print_handler;
    mju_error("boom %d", 8);
    printf("returned\n");
  }

  // a handler that longjmps out
  else if (!strcmp(mode, "error_longjmp")) {
    mju_user_error = jump_handler;
    if (setjmp(env) == 0) {
      mju_error("boom %d", 9);
      printf("not reached\n");
    } else {
      printf("caught\n");
    }
  }

  // an engine error (stack overflow) with a handler that returns: the call returns (what
  // it returns is not to be used: MuJoCo's pointer is past the arena, Torsion's NULL)
  else if (!strcmp(mode, "engine_handler")) {
    mjModel* m = load(argc, argv);
    mjData* d = mj_makeData(m);
    mju_user_error = keep_handler;
    mj_stackAllocNum(d, (size_t)1 << 40);
    printf("kept [%s]\n", kept);
    mj_deleteData(d);
    mj_deleteModel(m);
  }

  // an engine error without a handler: the process ends with status 1
  else if (!strcmp(mode, "engine_default")) {
    mjModel* m = load(argc, argv);
    mjData* d = mj_makeData(m);
    printf("allocating\n");
    mj_stackAllocNum(d, (size_t)1 << 40);
    printf("after\n");
  }

  // warnings: default (stderr and log), then a handler; mju_warning returns
  else if (!strcmp(mode, "warning")) {
    mju_warning("careful %d", 3);
    printf("after default\n");
    mju_user_warning = print_handler;
    mju_warning("careful %s", "again");
    printf("after handler\n");
  }

  // mj_warning: first occurrence of each kind printed (with the time), all counted
  else if (!strcmp(mode, "mj_warning")) {
    mjModel* m = load(argc, argv);
    mjData* d = mj_makeData(m);
    mju_user_warning = print_handler;
    d->time = 1.23456;
    for (int w = 0; w < mjNWARNING; w++) mj_warning(d, w, 5);
    mj_warning(d, mjWARN_BADQACC, 7);
    for (int w = 0; w < mjNWARNING; w++) {
      printf("warning %d number %d lastinfo %d\n", w, d->warning[w].number,
             d->warning[w].lastinfo);
    }
    mj_deleteData(d);
    mj_deleteModel(m);
  }

  // a log handler takes errors, warnings and info, before the legacy handlers
  else if (!strcmp(mode, "log_handler")) {
    mju_user_error = print_handler;
    mju_user_warning = print_handler;
    mjfLogHandler prev = mju_setLogHandler(log_handler);
    mju_error("err %d", 1);
    mju_warning("warn %d", 2);
    mju_info(0, "info %d", 3);
    mju_info(mjTOPIC_TIME_CMP, "topic %d", 2);
    mjLogMessage msg;
    memset(&msg, 0, sizeof(msg));
    msg.level = mjLOG_DEBUG;
    msg.topic = mjTOPIC_SLEEP;
    snprintf(msg.subject, sizeof(msg.subject), "debug subject");
    msg.body = "line 1\nline 2";
    msg.line = 12;
    mju_message(&msg);
    printf("returned after error\n");
    mjfLogHandler mine = mju_setLogHandler(prev);
    printf("got back mine %d\n", mine == log_handler);
    mju_warning("legacy again");
  }

  // the default handler: levels, streams, topics, body, func, file and line
  else if (!strcmp(mode, "log_default")) {
    mju_info(0, "info %d", 1);
    mju_info(mjTOPIC_TIME_STP, "filtered");
    mjLogConfig c = mju_getLogConfig();
    printf("config console %d file %d logfile %s topics %d\n", c.logto_console, c.logto_file,
           c.logfile, c.topics);
    c.topics = 1 << (mjTOPIC_TIME_STP - 1);
    mju_setLogConfig(c);
    mju_info(mjTOPIC_TIME_STP, "shown");
    mju_info(mjTOPIC_TIME_CMP, "not shown");
    mjLogMessage msg;
    memset(&msg, 0, sizeof(msg));
    msg.level = mjLOG_WARNING;
    snprintf(msg.subject, sizeof(msg.subject), "subject");
    msg.body = "body line";
    msg.func = "myfunc";
    msg.file = "myfile.c";
    msg.line = 42;
    mju_message(&msg);
    msg.level = mjLOG_DEBUG;
    msg.body = NULL;
    msg.file = NULL;
    mju_message(&msg);
    msg.topic = mjTOPIC_SLEEP;
    mju_message(&msg);
    fflush(stdout);
    print_file("MUJOCO_LOG.TXT");
  }

  // configuration: no console, another log file; an error there still exits
  else if (!strcmp(mode, "log_config")) {
    mjLogConfig c = mju_getLogConfig();
    c.logto_console = 0;
    snprintf(c.logfile, sizeof(c.logfile), "other.log");
    mju_setLogConfig(c);
    mju_warning("quiet warning");
    mju_info(0, "quiet info");
    print_file("other.log");
    print_file("MUJOCO_LOG.TXT");
    c.logto_file = 0;
    mju_setLogConfig(c);
    fflush(stdout);
    mju_error("silent error");
    printf("after\n");
  }

  // mju_writeLog: always MUJOCO_LOG.TXT
  else if (!strcmp(mode, "write_log")) {
    mju_writeLog("NOTE", "written");
    mju_writeLog("OTHER", "twice");
    print_file("MUJOCO_LOG.TXT");
  }

  // mju_clearHandlers clears the legacy and memory handlers
  else if (!strcmp(mode, "clear")) {
    mju_user_error = print_handler;
    mju_user_warning = print_handler;
    mju_user_malloc = malloc;
    mju_user_free = free;
    mju_clearHandlers();
    printf("cleared %d %d %d %d\n", mju_user_error == NULL, mju_user_warning == NULL,
           mju_user_malloc == NULL, mju_user_free == NULL);
  }

  else {
    printf("unknown mode\n");
    return 2;
  }
  printf("end\n");
  return 0;
}

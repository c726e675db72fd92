/* install_callbacks.c — a program that installs a warning handler in the library's global
 * mju_user_warning, linked with the installed libtorsion.so through pkg-config only. The
 * executable's copy relocation moves that variable into the program; the library must read
 * the program's copy (it is linked -Bsymbolic-functions, not -Bsymbolic), so the handler
 * runs. Prints what the handler saw and how often. */
#include <stdio.h>

#include <torsion/torsion.h>

static int ncalled = 0;

/* the program's warning handler */
static void on_warning(const char* msg) {
  ncalled++;
  printf("handler: %s\n", msg);
}

int main(void) {
  mju_user_warning = on_warning;
  mju_warning("installed handler %d", 7);
  printf("called %d\n", ncalled);
  return ncalled == 1 ? 0 : 1;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The fanotify decider's unit test driver (tests/fanotify-decide.test.ts): pure decisions of
 * src/fanotify-decide.c, no kernel involved. One name per input line, hex-encoded so any byte
 * (control bytes, invalid UTF-8) gets through; prints 1 (malformed) or 0 per line.
 */
#include <stdio.h>
#include <string.h>
#include "fanotify-decide.h"

int main(void)
{
  char line[1024];
  while (fgets(line, sizeof line, stdin)) {
    char name[512] = "";
    size_t n = 0;
    for (const char *h = line; h[0] && h[1] && h[0] != '\n' && n < sizeof name - 1; h += 2) {
      unsigned byte;
      if (sscanf(h, "%2x", &byte) != 1) break;
      name[n++] = (char)byte;
    }
    name[n] = '\0';
    printf("%d\n", guard_name_malformed(name) ? 1 : 0);
  }
  return 0;
}

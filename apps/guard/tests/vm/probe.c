// SPDX-License-Identifier: GPL-2.0
/*
 * The VM test's actor: performs one file operation and prints its errno, so the test sees exactly
 * what the kernel answered. Copies of this binary at different inodes are the restricted and the
 * exempt process. Also a tiny client of the helper's socket.
 *
 *   probe OP PATH [PATH2]      OP: write trunc read creat mkdir unlink rmdir rename touch chmod chown exec
 *   probe after FILE OP ...    waits until FILE exists, then runs OP (a process whose pid the plan trusts)
 *   probe repeat N OP PATH     runs OP N times in one process, prints the last errno
 *   probe send SOCKET LINE     sends one ndjson line to the helper and prints the answer
 *   probe                      does nothing: an ELF exec target (a script would be judged by what its
 *                              interpreter reads, an ELF only by the exec itself)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

static int run(const char *op, const char *path, const char *path2)
{
  int fd;
  if (!strcmp(op, "write")) {
    if ((fd = open(path, O_WRONLY)) < 0)
      return errno;
    return write(fd, "x", 1) < 0 ? errno : (close(fd), 0);
  }
  if (!strcmp(op, "trunc"))
    return (fd = open(path, O_RDONLY | O_TRUNC)) < 0 ? errno : (close(fd), 0);
  if (!strcmp(op, "read"))
    return (fd = open(path, O_RDONLY)) < 0 ? errno : (close(fd), 0);
  if (!strcmp(op, "creat"))
    return (fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644)) < 0 ? errno : (close(fd), 0);
  if (!strcmp(op, "mkdir"))
    return mkdir(path, 0755) ? errno : 0;
  if (!strcmp(op, "unlink"))
    return unlink(path) ? errno : 0;
  if (!strcmp(op, "rmdir"))
    return rmdir(path) ? errno : 0;
  if (!strcmp(op, "rename"))
    return rename(path, path2) ? errno : 0;
  if (!strcmp(op, "touch")) {
    struct timespec times[2] = { { 1000000000, 0 }, { 1000000000, 0 } }; /* touch -d 2001-09-09 */
    return utimensat(AT_FDCWD, path, times, 0) ? errno : 0;
  }
  if (!strcmp(op, "chmod"))
    return chmod(path, 0600) ? errno : 0;
  if (!strcmp(op, "chown"))
    return chown(path, 0, 1) ? errno : 0;
  if (!strcmp(op, "exec")) {
    pid_t pid = fork();
    if (pid == 0) {
      execl(path, path, (char *)NULL);
      _exit(100 + errno); /* exec refused: report its errno through the exit code */
    }
    int status = 0;
    waitpid(pid, &status, 0);
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 255;
    return code >= 100 ? code - 100 : code;
  }
  fprintf(stderr, "probe: unknown op %s\n", op);
  return 255;
}

static int send_line(const char *socket_path, const char *line)
{
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", socket_path);
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof(addr))) {
    printf("{\"error\":\"connect %s\"}\n", strerror(errno));
    return 1;
  }
  if (write(fd, line, strlen(line)) < 0 || write(fd, "\n", 1) < 0)
    return 1;
  char buf[65536];
  size_t len = 0;
  ssize_t n;
  while (len < sizeof(buf) - 1 && (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0) {
    len += (size_t)n;
    buf[len] = 0;
    char *line = buf, *nl;
    while ((nl = strchr(line, '\n'))) { /* pushed events come first sometimes: print the answer */
      *nl = 0;
      if (!strncmp(line, "{\"id\"", 5)) {
        printf("%s\n", line);
        return 0;
      }
      line = nl + 1;
    }
    len -= (size_t)(line - buf);
    memmove(buf, line, len);
  }
  return 1;
}

int main(int argc, char **argv)
{
  if (argc == 1)
    return 0; /* run as an exec target: a binary that does nothing */
  if (argc >= 4 && !strcmp(argv[1], "send"))
    return send_line(argv[2], argv[3]);
  if (argc >= 5 && !strcmp(argv[1], "repeat")) { /* a looping process: the helper must fold it */
    int times = atoi(argv[2]), err = 0;
    for (int i = 0; i < times; i++)
      err = run(argv[3], argv[4], argc > 5 ? argv[5] : NULL);
    printf("%d\n", err);
    return 0;
  }
  if (argc >= 4 && !strcmp(argv[1], "after")) {
    struct stat st;
    while (stat(argv[2], &st))
      usleep(20000);
    argv += 2;
    argc -= 2;
  }
  if (argc < 3) {
    fprintf(stderr, "usage: probe OP PATH [PATH2]\n");
    return 2;
  }
  int err = run(argv[1], argv[2], argc > 3 ? argv[3] : NULL);
  printf("%d\n", err);
  return 0;
}

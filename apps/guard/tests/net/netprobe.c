// SPDX-License-Identifier: GPL-2.0
/*
 * The network test's actor (apps/guard/tests/net-cgroup.test.ts) and the benchmark's workload.
 *   netprobe tcp  HOST PORT    connect(2) over TCP; prints "ok" or the errno name (EPERM, ...)
 *   netprobe udp  HOST PORT    sendto(2) of one datagram on an unconnected UDP socket
 *   netprobe udpc HOST PORT    connect(2) of a UDP socket, then send(2)
 *   netprobe rate 4|6 N        N loopback TCP connect+accept+close rounds; prints ns per round
 * Copies of this binary at their own inodes are the "restricted" and "unrestricted" executables.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int fill(const char *host, int port, struct sockaddr_storage *ss, socklen_t *len)
{
  memset(ss, 0, sizeof(*ss));
  struct sockaddr_in *a4 = (struct sockaddr_in *)ss;
  struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)ss;
  if (inet_pton(AF_INET, host, &a4->sin_addr) == 1) {
    a4->sin_family = AF_INET;
    a4->sin_port = htons(port);
    *len = sizeof(*a4);
    return AF_INET;
  }
  if (inet_pton(AF_INET6, host, &a6->sin6_addr) == 1) {
    a6->sin6_family = AF_INET6;
    a6->sin6_port = htons(port);
    *len = sizeof(*a6);
    return AF_INET6;
  }
  return -1;
}

static int report(int rc)
{
  puts(rc == 0 ? "ok" : strerrorname_np(errno));
  return 0;
}

static int rate(int family, long rounds)
{
  struct sockaddr_storage ss = {};
  socklen_t len = family == 4 ? sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6);
  fill(family == 4 ? "127.0.0.1" : "::1", 0, &ss, &len);
  int lfd = socket(ss.ss_family, SOCK_STREAM, 0);
  if (lfd < 0 || bind(lfd, (struct sockaddr *)&ss, len) || listen(lfd, 64) || getsockname(lfd, (struct sockaddr *)&ss, &len))
    return perror("listen"), 1;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (long i = 0; i < rounds; i++) {
    int c = socket(ss.ss_family, SOCK_STREAM, 0);
    if (c < 0 || connect(c, (struct sockaddr *)&ss, len))
      return perror("connect"), 1;
    int a = accept(lfd, NULL, NULL);
    if (a < 0)
      return perror("accept"), 1;
    /* The accepting side closes first: its TIME_WAIT does not pin the connecting side's ports. */
    close(a);
    close(c);
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double ns = (t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec);
  printf("%.1f\n", ns / rounds);
  return 0;
}

int main(int argc, char **argv)
{
  if (argc == 4 && strcmp(argv[1], "rate") == 0)
    return rate(atoi(argv[2]), atol(argv[3]));
  if (argc != 4) {
    fprintf(stderr, "usage: netprobe tcp|udp|udpc HOST PORT | netprobe rate 4|6 N\n");
    return 2;
  }
  struct sockaddr_storage ss;
  socklen_t len;
  int family = fill(argv[2], atoi(argv[3]), &ss, &len);
  if (family < 0) {
    fprintf(stderr, "netprobe: bad address %s\n", argv[2]);
    return 2;
  }
  const char *mode = argv[1];
  int fd = socket(family, strcmp(mode, "tcp") == 0 ? SOCK_STREAM : SOCK_DGRAM, 0);
  if (fd < 0)
    return perror("socket"), 1;
  if (strcmp(mode, "tcp") == 0)
    return report(connect(fd, (struct sockaddr *)&ss, len));
  if (strcmp(mode, "udp") == 0)
    return report(sendto(fd, "x", 1, 0, (struct sockaddr *)&ss, len) == 1 ? 0 : -1);
  if (strcmp(mode, "udpc") == 0) {
    if (connect(fd, (struct sockaddr *)&ss, len))
      return report(-1);
    return report(send(fd, "x", 1, 0) == 1 ? 0 : -1);
  }
  fprintf(stderr, "netprobe: unknown mode %s\n", mode);
  return 2;
}

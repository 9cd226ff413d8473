// The VM benchmark's clock: prints CLOCK_MONOTONIC in microseconds (busybox has no sub-second date).
#include <stdio.h>
#include <time.h>

int main(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  printf("%lld\n", (long long)t.tv_sec * 1000000 + t.tv_nsec / 1000);
  return 0;
}

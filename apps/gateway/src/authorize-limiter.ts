/**
 * Wrong authorization passwords per address. Five wrong tries in ten minutes lock the form for
 * the rest of those ten minutes: a person who mistypes gets several chances, while an online
 * guesser gets about 700 tries a day instead of thousands a second. It also bounds the CPU an
 * address can burn: each check is a scrypt hash (tens of milliseconds of a core).
 *
 * Counted per worker process (N workers allow N times as many tries, still a small number); an
 * address is forgotten when its window ends, and the table is capped so a spray of addresses
 * cannot grow it without bound (past the cap the oldest window is dropped first).
 */
export class WrongPasswordLimiter {
  private readonly tries = new Map<string, { count: number; since: number }>();

  private readonly maxTries: number;
  private readonly windowMs: number;
  private readonly maxAddresses: number;

  constructor(maxTries = 5, windowMs = 10 * 60_000, maxAddresses = 50_000) {
    this.maxTries = maxTries;
    this.windowMs = windowMs;
    this.maxAddresses = maxAddresses;
  }

  /** Is the form locked for this address now? */
  locked(ip: string, now: number): boolean {
    const entry = this.tries.get(ip);
    if (!entry) return false;
    if (now - entry.since >= this.windowMs) {
      this.tries.delete(ip);
      return false;
    }
    return entry.count >= this.maxTries;
  }

  wrong(ip: string, now: number): void {
    const entry = this.tries.get(ip);
    if (entry && now - entry.since < this.windowMs) {
      entry.count++;
      return;
    }
    this.tries.delete(ip);
    if (this.tries.size >= this.maxAddresses) {
      const oldest = this.tries.keys().next();
      if (!oldest.done) this.tries.delete(oldest.value);
    }
    this.tries.set(ip, { count: 1, since: now });
  }

  right(ip: string): void {
    this.tries.delete(ip);
  }
}

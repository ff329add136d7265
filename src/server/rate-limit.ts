/**
 * A fixed-window rate limiter in memory, per key (the client's address): enough for one server
 * guarding POST /api/join against guessing table codes (25^8 codes; 30 tries a minute).
 */
export class RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly options: { max: number; windowMs: number }, private readonly now: () => number = Date.now) {}

  /** Count a hit; returns 0 when allowed, else the ms until the key may try again. */
  hit(key: string): number {
    const t = this.now();
    if (this.windows.size > 10_000) {
      for (const [k, w] of this.windows) if (w.resetAt <= t) this.windows.delete(k);
    }
    let w = this.windows.get(key);
    if (!w || w.resetAt <= t) {
      w = { count: 0, resetAt: t + this.options.windowMs };
      this.windows.set(key, w);
    }
    w.count++;
    return w.count > this.options.max ? w.resetAt - t : 0;
  }
}

// Token bucket per session: `perSecond` ops refill each second, with a burst of the same size.
export class TokenBucket {
  private readonly perSecond: number;
  private tokens: number;
  private last: number;
  constructor(perSecond: number, now: number) {
    this.perSecond = perSecond;
    this.tokens = perSecond;
    this.last = now;
  }
  /** Takes `cost` tokens if available and returns 0; otherwise returns the ms to wait. */
  take(cost: number, now: number): number {
    this.tokens = Math.min(this.perSecond, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (cost <= this.tokens) {
      this.tokens -= cost;
      return 0;
    }
    return Math.ceil(((cost - this.tokens) / this.perSecond) * 1000);
  }
}

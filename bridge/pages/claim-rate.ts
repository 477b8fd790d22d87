import { RateLimited } from '../errors.js';
import type { LimitCounters } from '../limits.js';
import { NO_ORIGIN, OPAQUE_ORIGIN, pageOrigin } from './origins.js';

/** The key all origins awaiting the human's approval share: any website can mint new origins (subdomains). */
const AWAITING = 'origins awaiting approval';
/** Past this many buckets, full ones are forgotten (a full bucket is the same as none). */
const MAX_BUCKETS = 1000;

/** A token bucket: `tokens` claims may go now; it refills at its rate up to its burst. */
interface Bucket {
  tokens: number;
  /** performance.now() of the last refill */
  at: number;
}

function refill(bucket: Bucket, now: number, rate: number, burst: number): Bucket {
  bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * rate);
  bucket.at = now;
  return bucket;
}

/** Seconds until a bucket holds one token again (at least 1: Retry-After counts whole seconds). */
function secondsToNext(bucket: Bucket, rate: number): number {
  return Math.max(1, Math.ceil((1 - bucket.tokens) / rate));
}

export interface ClaimRateOptions {
  counters: LimitCounters;
  /** true for a loopback or allowed origin (the developer's own); false sends it to the shared bucket */
  isOperable(origin: string): boolean;
  now?: () => number;
}

/**
 * How fast pages may be claimed (limits.claimsPerSecond, claimBurst, claimsPerSecondTotal, claimBurstTotal): a token bucket per
 * loopback or allowed origin, one bucket shared by every origin awaiting approval, and one for all claims together
 * (a local program can put a new loopback Origin on each request). A page reload is one claim, so the budget is
 * far above what a developer's tabs or a parallel test run do; past it, a claim is refused before its body is
 * read — the cheapest answer the bridge can give a flood — and the refusal says when to come back (Retry-After).
 */
export class ClaimRate {
  private readonly buckets = new Map<string, Bucket>();
  private readonly total: Bucket;
  private readonly now: () => number;

  constructor(private readonly options: ClaimRateOptions) {
    this.now = options.now ?? (() => performance.now());
    this.total = { tokens: this.limits.claimBurstTotal, at: this.now() };
  }

  private get limits() {
    return this.options.counters.limits;
  }

  /** Takes one claim from the origin's budget, or throws a RateLimited 429 that says when one is free again. */
  take(originHeader: string | undefined): void {
    const origin = pageOrigin(originHeader);
    const own = origin !== OPAQUE_ORIGIN && origin !== NO_ORIGIN && this.options.isOperable(origin);
    const { claimsPerSecond: rate, claimBurst: burst, claimsPerSecondTotal: totalRate } = this.limits;
    const now = this.now();
    const bucket = this.bucketOf(own ? origin : AWAITING, now);
    const total = refill(this.total, now, totalRate, this.limits.claimBurstTotal);
    if (bucket.tokens >= 1 && total.tokens >= 1) {
      bucket.tokens -= 1;
      total.tokens -= 1;
      return;
    }
    if (bucket.tokens < 1) {
      this.options.counters.refused('claimsPerOrigin');
      const wait = secondsToNext(bucket, rate);
      throw new RateLimited(
        own
          ? `origin ${origin} claimed more than ${burst} pages at once or ${rate} a second (limit claimsPerSecond); a page reload is one claim: retry after ${wait} s`
          : `pages from origins awaiting the human's approval (this one: ${origin}) claimed more than ${burst} at once or ${rate} a second together (limit claimsPerSecond); allow the origin in the AITI window, or retry after ${wait} s`,
        undefined,
        wait,
      );
    }
    this.options.counters.refused('claimsTotal');
    const wait = secondsToNext(total, totalRate);
    throw new RateLimited(
      `all origins together claimed more than ${this.limits.claimBurstTotal} pages at once or ${totalRate} a second (limit claimsPerSecondTotal); retry after ${wait} s`,
      undefined,
      wait,
    );
  }

  private bucketOf(key: string, now: number): Bucket {
    const { claimsPerSecond: rate, claimBurst: burst } = this.limits;
    const bucket = this.buckets.get(key);
    if (bucket) return refill(bucket, now, rate, burst);
    if (this.buckets.size >= MAX_BUCKETS) this.forgetFull(now);
    const fresh = { tokens: burst, at: now };
    this.buckets.set(key, fresh);
    return fresh;
  }

  private forgetFull(now: number): void {
    const { claimsPerSecond: rate, claimBurst: burst } = this.limits;
    for (const [key, bucket] of this.buckets) {
      if (refill(bucket, now, rate, burst).tokens >= burst) this.buckets.delete(key);
    }
    // a local program minting a new loopback origin per claim: the total bucket still holds it back
    if (this.buckets.size >= MAX_BUCKETS) this.buckets.clear();
  }
}

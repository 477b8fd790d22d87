import { RateLimited } from '../errors.js';
import type { LimitCounters, LimitName, Limits } from '../limits.js';
import { NO_ORIGIN, OPAQUE_ORIGIN, pageOrigin } from './origins.js';

/** The key all origins awaiting the human's approval share: any website can mint new origins (subdomains). */
const AWAITING = 'origins awaiting approval';
/** Past this many buckets, full ones are forgotten (a full bucket is the same as none). */
const MAX_BUCKETS = 1000;

/** A token bucket: `tokens` requests may go now; it refills at its rate up to its burst. */
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

/** Which limits one budget reads, and the names its refusals are counted and reported under. */
export interface RateKind {
  /** what is counted, in the refusal's words: "claims", "page requests" */
  what: string;
  /** what the developer should know when their own origin meets it */
  hint: string;
  perSecond: keyof Limits;
  burst: keyof Limits;
  totalPerSecond: keyof Limits;
  totalBurst: keyof Limits;
  perOrigin: LimitName;
  total: LimitName;
}

export const CLAIMS: RateKind = {
  what: 'claims',
  hint: 'a page reload is one claim; ',
  perSecond: 'claimsPerSecond',
  burst: 'claimBurst',
  totalPerSecond: 'claimsPerSecondTotal',
  totalBurst: 'claimBurstTotal',
  perOrigin: 'claimsPerOrigin',
  total: 'claimsTotal',
};

export const PAGE_REQUESTS: RateKind = {
  what: 'page requests',
  hint: '',
  perSecond: 'pageRequestsPerSecond',
  burst: 'pageRequestBurst',
  totalPerSecond: 'pageRequestsPerSecondTotal',
  totalBurst: 'pageRequestBurstTotal',
  perOrigin: 'pageRequestsPerOrigin',
  total: 'pageRequestsTotal',
};

export interface OriginRateOptions {
  counters: LimitCounters;
  kind: RateKind;
  /** true for a loopback or allowed origin (the developer's own); false sends it to the shared bucket */
  isOperable(origin: string): boolean;
  now?: () => number;
}

/**
 * How fast pages may send (claims, and every other page request): a token bucket per loopback or allowed
 * origin, one bucket shared by every origin awaiting approval, and one for all origins together (a local program
 * can put a new loopback Origin on each request). The budgets are far above what a developer's tabs or a
 * parallel test run do; past them a request is refused before its body is read — the cheapest answer the bridge
 * can give a flood — and the refusal says when to come back (Retry-After).
 */
export class OriginRate {
  private readonly buckets = new Map<string, Bucket>();
  private readonly total: Bucket;
  private readonly now: () => number;

  constructor(private readonly options: OriginRateOptions) {
    this.now = options.now ?? (() => performance.now());
    this.total = { tokens: this.limit('totalBurst'), at: this.now() };
  }

  private limit(name: 'perSecond' | 'burst' | 'totalPerSecond' | 'totalBurst'): number {
    return this.options.counters.limits[this.options.kind[name]] as number;
  }

  /** Takes one request from the origin's budget, or throws a RateLimited 429 that says when one is free again. */
  take(originHeader: string | undefined): void {
    const { kind, counters } = this.options;
    const origin = pageOrigin(originHeader);
    const own = origin !== OPAQUE_ORIGIN && origin !== NO_ORIGIN && this.options.isOperable(origin);
    const [rate, burst] = [this.limit('perSecond'), this.limit('burst')];
    const [totalRate, totalBurst] = [this.limit('totalPerSecond'), this.limit('totalBurst')];
    const now = this.now();
    const bucket = this.bucketOf(own ? origin : AWAITING, now);
    const total = refill(this.total, now, totalRate, totalBurst);
    if (bucket.tokens >= 1 && total.tokens >= 1) {
      bucket.tokens -= 1;
      total.tokens -= 1;
      return;
    }
    if (bucket.tokens < 1) {
      counters.refused(kind.perOrigin);
      const wait = secondsToNext(bucket, rate);
      throw new RateLimited(
        own
          ? `origin ${origin} sent more than ${burst} ${kind.what} at once or ${rate} a second (limit ${kind.perSecond}); ${kind.hint}retry after ${wait} s`
          : `origins awaiting the human's approval (this one: ${origin}) sent more than ${burst} ${kind.what} at once or ${rate} a second together (limit ${kind.perSecond}); allow the origin in the AITI window, or retry after ${wait} s`,
        undefined,
        wait,
      );
    }
    counters.refused(kind.total);
    const wait = secondsToNext(total, totalRate);
    throw new RateLimited(
      `all origins together sent more than ${totalBurst} ${kind.what} at once or ${totalRate} a second (limit ${kind.totalPerSecond}); retry after ${wait} s`,
      undefined,
      wait,
    );
  }

  private bucketOf(key: string, now: number): Bucket {
    const [rate, burst] = [this.limit('perSecond'), this.limit('burst')];
    const bucket = this.buckets.get(key);
    if (bucket) return refill(bucket, now, rate, burst);
    if (this.buckets.size >= MAX_BUCKETS) this.forgetFull(now, rate, burst);
    const fresh = { tokens: burst, at: now };
    this.buckets.set(key, fresh);
    return fresh;
  }

  private forgetFull(now: number, rate: number, burst: number): void {
    for (const [key, bucket] of this.buckets) {
      if (refill(bucket, now, rate, burst).tokens >= burst) this.buckets.delete(key);
    }
    // a local program minting a new loopback origin per request: the total bucket still holds it back
    if (this.buckets.size >= MAX_BUCKETS) this.buckets.clear();
  }
}

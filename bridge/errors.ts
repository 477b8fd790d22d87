/**
 * The bridge's own errors: thrown by the domain (pages, requests, inbox, asks, agents) with a message written for
 * the person or agent who caused them (what was wrong, the value, what to do next), and the argument at fault when
 * there is one. The edges map them, each in one place: HTTP status codes in http/errors.ts, tool errors in
 * mcp/dispatch.ts. Anything else thrown is a bug: logged, and answered as an internal error.
 */
export class BridgeError extends Error {
  constructor(
    message: string,
    /** the field or argument at fault, e.g. "pageId" or "args.target" */
    readonly field?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The input is wrong in a way its schema could not say (a value the question does not take, a bad time). */
export class Invalid extends BridgeError {}
/** The caller may not do this (a wrong page secret, a result for a request sent to another page). */
export class Forbidden extends BridgeError {}
/** The thing named does not exist (an unknown page, ask, agent or request). */
export class NotFound extends BridgeError {}
/** It existed but its state does not allow this now (an ask that already ended; nobody to push to). */
export class Conflict extends BridgeError {}
/** The caller passed one of the bridge's limits (bridge/limits.ts): too many pages from one origin, frames … */
export class TooMany extends BridgeError {}
/** The caller went faster than a rate limit allows: a 429 that says, in whole seconds, when to try again. */
export class RateLimited extends TooMany {
  /** sent as Retry-After */
  readonly retryAfterS: number;

  constructor(message: string, field?: string, retryAfterS = 1) {
    // a flood makes thousands of these a second, all thrown from the same place: capturing their stack was the
    // largest single cost of a refusal (see docs/PERFORMANCE.md, flood)
    const depth = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(message, field);
    } finally {
      Error.stackTraceLimit = depth;
    }
    this.retryAfterS = retryAfterS;
  }
}
/** The bridge could not do it for a reason outside the caller (the disk refused a write, a limit for all is full). */
export class Unavailable extends BridgeError {}
/** The human or the page declined or could not do it: an outcome to report, not a fault. */
export class Refused extends BridgeError {}

import type { AgentTokenRecord, AgentTokens } from './tokens.js';

/** A timer can wait at most this long (setTimeout's limit, about 24.8 days); later expiries are looked at again. */
const LONGEST_WAIT_MS = 2_147_000_000;

/**
 * Expiry cuts what a token has open, as revoking does: when an agent token's time runs out, `expired` is called
 * with it (the bridge closes its streams and calls in flight, credentialLinks), so an expired token's open stream
 * never receives what comes after (an answer to the ask it left open). One timer, for the next expiry; the tokens
 * changing (made, revoked, another process's edit) sets it again.
 */
export function cutOnExpiry(
  tokens: Pick<AgentTokens, 'list' | 'onChange'>,
  expired: (record: AgentTokenRecord) => void,
  now: () => number = Date.now,
): { close(): void } {
  const done = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    clearTimeout(timer);
    timer = undefined;
    let next = Infinity;
    for (const record of tokens.list()) {
      if (!record.expiresAt || done.has(record.id)) continue;
      const at = Date.parse(record.expiresAt);
      if (at <= now()) {
        done.add(record.id);
        expired(record);
      } else next = Math.min(next, at);
    }
    if (next === Infinity) return;
    timer = setTimeout(schedule, Math.min(LONGEST_WAIT_MS, Math.max(0, next - now())));
    timer.unref();
  };
  const stop = tokens.onChange(schedule);
  schedule();
  return {
    close: () => {
      stop();
      clearTimeout(timer);
    },
  };
}

import { describe, expect, it } from 'vitest';
import { fixedSleeps, LIMIT_MS } from '../helpers/fixed-sleeps.js';

/**
 * What the suite's fixed sleeps add up to today, under issue #43's LIMIT_MS (10 s). The ceiling only comes down:
 * a test waits on a condition it can observe (an event, a file, an HTTP answer, a counter) or an injected clock,
 * so a new sleep has to replace an old one, and the total never reaches the limit.
 */
const CEILING_MS = 5_840;

describe('fixed sleeps', () => {
  it(`the suite's fixed sleeps add up to no more than today's ceiling, under ${LIMIT_MS / 1000} s`, () => {
    const sleeps = fixedSleeps();
    const total = sleeps.reduce((sum, s) => sum + s.ms, 0);
    const listed = sleeps.map((s) => `${s.at} ${s.ms} ms`).join('\n');
    const why = `fixed sleeps (wait on a condition or an injected clock instead):\n${listed}`;
    expect(total, why).toBeLessThanOrEqual(CEILING_MS);
    expect(total, why).toBeLessThan(LIMIT_MS);
  });
});

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Bridge } from '../../bridge/bridge.js';
import type { ClaimAnswer } from '../../bridge/protocol/index.js';
import { http, startBridge } from '../helpers/bridge.js';
import { callTool, connectAgent, resultText } from '../helpers/mcp.js';
import { ScriptedPage } from '../helpers/scripted-page.js';
import { limitsOf } from '../helpers/limits.js';
import { waitFor } from '../helpers/wait.js';

/**
 * Issue 16, Medium 5: a claim flood (a website's tab, or any local program) is refused cheaply, says why and
 * when to come back, shows in bridge_status, and leaves the developer's own pages and the agents' calls working.
 * Rates are set so low here that no refill happens during a test: what is refused does not depend on speed.
 */

function claim(bridge: Bridge, origin: string, body: Record<string, unknown> = {}) {
  return http(`${bridge.url}/bridge/claim`, {
    headers: { origin, 'content-type': 'text/plain' },
    body: { instanceId: randomUUID(), pageKey: 'k', url: `${origin}/`, ...body },
  });
}

/** `count` claims from one origin, `inFlight` at a time, as a flooding tab or program sends them. */
async function flood(bridge: Bridge, origin: string, count: number, inFlight = 20) {
  const answers: Array<Awaited<ReturnType<typeof claim>>> = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) {
        next++;
        answers.push(await claim(bridge, origin));
      }
    }),
  );
  return answers;
}

describe('a claim flood', () => {
  it('is refused with 429 naming the limit and Retry-After, counted, while the agent and a loopback page go on', async () => {
    const bridge = await startBridge({ limits: { claimBurst: 10, claimsPerSecond: 0.01, tarpitMs: 20 } });
    const app = await ScriptedPage.connect(bridge.url, { url: 'http://localhost:5173/', handler: () => 'app text' });
    const agent = await connectAgent(bridge.url);

    const [answers, during] = await Promise.all([
      flood(bridge, 'http://evil.example:5000', 60),
      callTool(agent, 'page_exec', { pageId: app.pageId, cmd: 'DOM.getText', args: { target: 'css=h1' } }),
    ]);

    expect(during.isError, resultText(during)).toBeFalsy();
    expect(resultText(during)).toContain('app text');
    const limited = answers.filter((a) => JSON.stringify(a.body).includes('claimsPerSecond'));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(10);
    expect(limited).toHaveLength(50);
    for (const answer of limited) {
      expect(answer.status).toBe(429);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    expect(JSON.stringify(limited[0]?.body)).toMatch(
      /awaiting the human's approval \(this one: http:\/\/evil\.example:5000\).*allow the origin.*retry after \d+ s/,
    );
    expect((await limitsOf(bridge)).claimsPerOrigin).toMatchObject({ limit: 0.01, refused: 50 });

    // the developer's own origin has its own budget: a page there claims right after, and the agent reaches it
    const fresh = await ScriptedPage.connect(bridge.url, { url: 'http://localhost:5173/next', handler: () => 'fresh' });
    const after = await callTool(agent, 'page_exec', { pageId: fresh.pageId, cmd: 'DOM.getText', args: {} });
    expect(resultText(after)).toContain('fresh');
  });

  it('from a loopback origin is refused past that origin’s budget, and other origins still claim', async () => {
    const bridge = await startBridge({ limits: { claimBurst: 5, claimsPerSecond: 0.01, tarpitMs: 0 } });
    const answers = await flood(bridge, 'http://localhost:3000', 12, 4);
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(5).fill(200), ...Array(7).fill(429)]);
    const refused = answers.find((a) => a.status === 429);
    expect(JSON.stringify(refused?.body)).toMatch(
      /origin http:\/\/localhost:3000 sent more than 5 claims at once.*claimsPerSecond.*a page reload is one claim/,
    );
    expect((await claim(bridge, 'http://localhost:3001')).status).toBe(200);
    expect((await limitsOf(bridge)).claimsPerOrigin).toMatchObject({ refused: 7 });
  });

  it('with a new loopback Origin on every claim, meets the limit for all origins together', async () => {
    const bridge = await startBridge({ limits: { claimBurstTotal: 6, claimsPerSecondTotal: 0.01, tarpitMs: 0 } });
    const statuses: number[] = [];
    let refusal: unknown;
    for (let i = 0; i < 10; i++) {
      const answer = await claim(bridge, `http://localhost:${6000 + i}`);
      statuses.push(answer.status);
      if (answer.status === 429) refusal = answer.body;
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429, 429, 429]);
    expect(JSON.stringify(refusal)).toMatch(
      /all origins together sent more than 6 claims at once.*claimsPerSecondTotal/,
    );
    expect((await limitsOf(bridge)).claimsTotal).toMatchObject({ refused: 4 });
  });

  it('is held in the tarpit, at most tarpitSockets at once; the rest is answered at once and counted', async () => {
    const bridge = await startBridge({
      limits: { claimBurst: 1, claimsPerSecond: 0.01, tarpitMs: 60_000, tarpitSockets: 2 },
    });
    expect((await claim(bridge, 'http://localhost:3000')).status).toBe(200);
    let heldAnswered = 0;
    const held = [0, 1].map(() =>
      claim(bridge, 'http://localhost:3000').then((answer) => {
        heldAnswered++;
        return answer;
      }),
    );
    await waitFor(async () => (await limitsOf(bridge)).tarpit?.current === 2, 5000, 'two refusals held');

    const atOnce = await Promise.all([0, 1, 2].map(() => claim(bridge, 'http://localhost:3000')));
    expect(atOnce.map((a) => a.status)).toEqual([429, 429, 429]);
    expect(JSON.stringify(atOnce[0]?.body)).toContain('claimsPerSecond');
    expect(heldAnswered).toBe(0);
    expect((await limitsOf(bridge)).tarpit).toEqual({ limit: 2, current: 2, refused: 3 });

    // closing the bridge answers what it holds: nobody is left waiting on a dead socket
    await bridge.close();
    expect((await Promise.all(held)).map((a) => a.status)).toEqual([429, 429]);
  });
});

describe('a flood of other page requests', () => {
  it('is refused with 429 naming its own limit, before the secret is checked, while the developer’s page posts on', async () => {
    const bridge = await startBridge({ limits: { pageRequestBurst: 8, pageRequestsPerSecond: 0.01, tarpitMs: 0 } });
    const app = await ScriptedPage.connect(bridge.url, { url: 'http://localhost:5173/' });
    const event = (origin: string, pageId: string, secret: string) =>
      http(`${bridge.url}/bridge/event`, {
        headers: { origin, 'content-type': 'text/plain' },
        body: {
          pageId,
          secret,
          type: 'page_log',
          payload: [{ level: 'log', text: 'x', at: new Date().toISOString() }],
        },
      });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => event('http://evil.example:5000', 'p-guess', 'wrong')),
    );
    // the first ones reach the secret check (403); the rest never get that far
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(8).fill(403), ...Array(12).fill(429)]);
    const refused = answers.find((a) => a.status === 429);
    expect(JSON.stringify(refused?.body)).toMatch(/sent more than 8 page requests at once.*pageRequestsPerSecond/);
    expect(refused?.headers.get('retry-after')).toBeTruthy();
    expect((await limitsOf(bridge)).pageRequestsPerOrigin).toMatchObject({ refused: 12 });
    // claims have their own budget, and the app's origin its own: it still claims and posts
    expect((await claim(bridge, 'http://evil.example:5000')).status).toBe(200);
    expect((await event('http://localhost:5173', app.pageId, app.secret)).status).toBe(204);
  });
});

describe('the default claim limits', () => {
  it('never refuse a reload storm: five tabs reloading twenty times at once, and a test run opening 80 tabs', async () => {
    const bridge = await startBridge();
    const origin = 'http://localhost:5173';
    const tabs = await Promise.all(
      [0, 1, 2, 3, 4].map(async () => {
        const instanceId = randomUUID();
        const first = await claim(bridge, origin, { instanceId });
        return { instanceId, secret: (first.body as ClaimAnswer).secret };
      }),
    );
    // a reload claims again with the identity kept in sessionStorage
    const reloads = await Promise.all(
      tabs.flatMap((tab) => Array.from({ length: 20 }, () => claim(bridge, origin, tab))),
    );
    const testRun = await Promise.all(Array.from({ length: 80 }, () => claim(bridge, origin)));
    expect([...reloads, ...testRun].filter((a) => a.status !== 200)).toEqual([]);
    const limits = await limitsOf(bridge);
    expect(limits.claimsPerOrigin).toMatchObject({ refused: 0 });
    expect(limits.claimsTotal).toMatchObject({ refused: 0 });
  });
});

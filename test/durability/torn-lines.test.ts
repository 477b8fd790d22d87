import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentTokens } from '../../bridge/agents/tokens.js';
import { startBridge, tempDir } from '../helpers/bridge.js';
import { cli } from '../helpers/cli.js';
import { claimPage } from '../helpers/page-wire.js';

/**
 * Finding 3 of issue 37: a line file whose last line a power cut left short glued the next line to the fragment,
 * and both were read as garbage: a token "revoked" stayed valid, a claimed page id came back to a new page. Every
 * line file is now appended through one helper (private-files.ts appendLine) that ends a torn last line first.
 */

describe('a torn last line (issue 37, finding 3)', () => {
  it('agent-tokens.jsonl: a revoke after a torn line is kept — the token is refused, after a restart too', async () => {
    const dataDir = tempDir();
    const env = { AITI_BRIDGE_DATA_DIR: dataDir };
    const created = await cli(['agent-token', 'create', 'devbox'], env);
    expect(created.code).toBe(0);
    // shown once, on a line of its own
    const token = /^ {2}(aiti_agent_\S+)$/m.exec(created.stdout)?.[1] ?? '';
    expect(token).not.toBe('');
    const file = join(dataDir, 'aiti-bridge', 'agent-tokens.jsonl');
    expect((await cli(['agent-token', 'list'], env)).stdout).toMatch(/^devbox /);
    // the power went while a last use was being written
    appendFileSync(file, '{"op":"used","id":"agt_');
    const revoked = await cli(['agent-token', 'revoke', 'devbox'], env);
    expect(revoked).toMatchObject({ code: 0, stdout: expect.stringMatching(/^revoked devbox /) });
    // read again from the file, as the running bridge, a restarted one and the CLI do
    expect(await new AgentTokens(file).verify(token)).toBeUndefined();
    expect((await cli(['agent-token', 'list'], env)).stdout).toContain('no agent tokens');
    // the fragment was ended before the revoke was written: a line of its own
    expect(readFileSync(file, 'utf8').split('\n').slice(-3)).toEqual([
      '{"op":"used","id":"agt_',
      expect.stringMatching(/^\{"op":"revoke","id":"[^"]+","at":"[^"]+"\}$/),
      '',
    ]);
  });

  it('page-ids.jsonl: the claim written after a torn line keeps its id, and no new page gets it', async () => {
    const dataDir = tempDir();
    const first = await startBridge({ dataDir });
    const one = await claimPage(first.url);
    expect(one.claim.pageId).toBe('p1');
    await first.close();
    // a claim whose line the power cut short: never answered, so its page claims again
    appendFileSync(join(dataDir, 'aiti-bridge', 'page-ids.jsonl'), '{"instanceId":"cut-short","pageI');

    const second = await startBridge({ dataDir });
    const two = await claimPage(second.url);
    expect(two.claim.pageId).toBe('p2');
    await second.close();

    const third = await startBridge({ dataDir });
    // a new page gets a new number, never p2 (a glued line lost p2's claim, and its number with it); the page that
    // got p2 gets it back
    expect((await claimPage(third.url)).claim.pageId).toBe('p3');
    const back = await claimPage(third.url, { instanceId: two.instanceId, secret: two.claim.secret });
    expect(back.claim.pageId).toBe('p2');
  });
});

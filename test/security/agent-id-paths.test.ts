import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MessagesAnswer } from '../../bridge/protocol/index.js';
import { http, startBridge, tempDir } from '../helpers/bridge.js';
import { callTool, connectAgent } from '../helpers/mcp.js';

/**
 * Issue 24, Low 5: an agent id `..` or `.` (a client named `..`, or `aiti_hello {agentId: "."}`) wrote journal
 * files outside `sessions/<agent>/`, and those were never replayed; on Windows `:` and `CON` would be worse.
 */

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((path) => statSync(join(dir, path)).isFile())
    .sort();
}

async function historyTexts(url: string, token: string, agentId: string): Promise<string[]> {
  const res = await http(`${url}/bridge/messages?agentId=${encodeURIComponent(agentId)}`, { token });
  expect(res.status).toBe(200);
  return (res.body as MessagesAnswer).messages.map((m) => m.text ?? '');
}

const HOSTILE = ['..', '.', 'CON', 'nul.txt', 'com1', 'a:b', 'trailing.'];

describe('agent ids never become paths', () => {
  it('a client named "..", and ids ".", "CON", "a:b" …, journal inside sessions/, and replay finds them all', async () => {
    const dataDir = tempDir();
    const bridge = await startBridge({ dataDir });
    const dotdot = await connectAgent(bridge.url, { clientName: '..' });
    expect((await callTool(dotdot, 'bridge_status')).structuredContent).toMatchObject({ you: '..' });
    for (const agentId of HOSTILE.slice(1)) {
      const agent = await connectAgent(bridge.url, { clientName: `for-${agentId}` });
      expect((await callTool(agent, 'aiti_hello', { agentId })).isError).toBeFalsy();
    }
    for (const agentId of HOSTILE) {
      const push = await http(`${bridge.url}/bridge/push`, {
        token: bridge.token,
        body: { to: agentId, text: `for ${agentId}` },
      });
      expect(push.status).toBe(200);
    }
    const appDir = bridge.context.appDir;
    await bridge.close();

    // the bridge's own records beside the journals: agent ids, page ids, Streamable HTTP sessions
    const own = ['agent-ids.jsonl', 'page-ids.jsonl', 'mcp-sessions.jsonl'];
    const journals = filesUnder(appDir).filter((path) => path.endsWith('.jsonl') && !own.includes(path));
    expect(journals.length).toBe(HOSTILE.length);
    for (const path of journals) {
      const [top, agentDir, file, ...deeper] = path.split('/');
      expect(top).toBe('sessions');
      expect(deeper).toEqual([]);
      expect(file).toMatch(/\.jsonl$/);
      // a name every OS takes as written: no dots alone, no device names, no streams, no trailing dot
      expect(agentDir).toMatch(/^[A-Za-z0-9_@~-][A-Za-z0-9._@-]*[^.]$/);
      expect(agentDir).not.toMatch(/^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i);
    }

    const again = await startBridge({ dataDir });
    for (const agentId of HOSTILE)
      expect(await historyTexts(again.url, again.token, agentId)).toEqual([`for ${agentId}`]);
  });

  it('replay still finds the files older bridges left outside sessions/<agent>/ and under a plain "a:b"', async () => {
    const dataDir = tempDir();
    const appDir = join(dataDir, 'aiti-bridge');
    const sessions = join(appDir, 'sessions');
    mkdirSync(join(sessions, 'a:b'), { recursive: true });
    const file = (at: string) => `${at.replace(/:/g, '-')}_0f0e0d0c-0b0a-4908-8706-050403020100.jsonl`;
    const journal = (agentId: string, id: string, at: string) =>
      [
        { type: 'session', agentId, startedAt: at, bridgeVersion: '0.9.0' },
        {
          type: 'message',
          message: { id, kind: 'user_message', from: 'window', agentId, text: `old ${agentId}`, at, status: 'pending' },
        },
      ]
        .map((line) => JSON.stringify(line) + '\n')
        .join('');
    // where the old code put them: join(sessions, "..") is the app dir, join(sessions, ".") is sessions itself
    writeFileSync(join(appDir, file('2026-01-02T10:00:00.000Z')), journal('..', 'm-old-1', '2026-01-02T10:00:00.000Z'));
    writeFileSync(
      join(sessions, file('2026-01-02T11:00:00.000Z')),
      journal('.', 'm-old-2', '2026-01-02T11:00:00.000Z'),
    );
    writeFileSync(
      join(sessions, 'a:b', file('2026-01-02T12:00:00.000Z')),
      journal('a:b', 'm-old-3', '2026-01-02T12:00:00.000Z'),
    );
    const bridge = await startBridge({ dataDir });
    expect(await historyTexts(bridge.url, bridge.token, '..')).toEqual(['old ..']);
    expect(await historyTexts(bridge.url, bridge.token, '.')).toEqual(['old .']);
    expect(await historyTexts(bridge.url, bridge.token, 'a:b')).toEqual(['old a:b']);

    // new messages go to the encoded directory, and both old and new are read back after a restart
    await http(`${bridge.url}/bridge/push`, { token: bridge.token, body: { to: 'a:b', text: 'new a:b' } });
    await bridge.close();
    const again = await startBridge({ dataDir });
    expect((await historyTexts(again.url, again.token, 'a:b')).sort()).toEqual(['new a:b', 'old a:b']);
  });
});

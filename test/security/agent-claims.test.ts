import { appendFileSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Bridge } from '../../bridge/bridge.js';
import type { InboxResult, PushAnswer } from '../../bridge/protocol/index.js';
import { http, startBridge } from '../helpers/bridge.js';
import { callTool, connectAgent, resultText } from '../helpers/mcp.js';
import { waitFor } from '../helpers/wait.js';

/**
 * Issue 29: who may take an agent id, as the mutation run found it untested. Each test is a second caller
 * reaching for an id that is not theirs (or a person reaching for their own), and what it gets to read.
 */

async function pushTo(bridge: Bridge, to: string, text: string): Promise<string> {
  const res = await http(`${bridge.url}/bridge/push`, { token: bridge.token, body: { to, text } });
  expect(res.status).toBe(200);
  return (res.body as PushAnswer).delivered[0]?.msgId ?? '';
}

/** A stateless caller that names its agent (and its key) in headers, as CI scripts do. */
function statelessAs(bridge: Bridge, agentId: string, agentKey?: string) {
  return connectAgent(bridge.url, {
    transport: 'stateless',
    clientName: 'ci-script',
    headers: { 'x-aiti-agent': agentId, ...(agentKey ? { 'x-aiti-agent-key': agentKey } : {}) },
  });
}

function texts(result: Awaited<ReturnType<typeof callTool>>): Array<string | undefined> {
  return (result.structuredContent as InboxResult).messages.map((m) => m.text);
}

function isOnline(bridge: Bridge, agentId: string): boolean {
  const agent = bridge.context.agents.get(agentId);
  return agent !== undefined && bridge.context.agents.isOnline(agent);
}

const claimsFile = (bridge: Bridge) => join(bridge.context.appDir, 'agent-ids.jsonl');

/** A bridge started by `start`, and the warnings it wrote on stderr meanwhile, as the person running it reads them. */
async function warningsOf(start: () => Promise<Bridge>): Promise<{ bridge: Bridge; warnings: string[] }> {
  const write = process.stderr.write;
  let written = '';
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    written += String(chunk);
    return Reflect.apply(write, process.stderr, [chunk, ...rest]) as boolean;
  }) as typeof write;
  try {
    const bridge = await start();
    return { bridge, warnings: written.split('\n').filter((line) => line.includes(' warn: ')) };
  } finally {
    process.stderr.write = write;
  }
}

describe('an id only the human wrote to', () => {
  it('after a restart, its read history keeps it from a session that names it; stateless callers still share it', async () => {
    const first = await startBridge();
    const runner = await statelessAs(first, 'ci-runner');
    await callTool(runner, 'bridge_status');
    const msgId = await pushTo(first, 'ci-runner', 'build 812 is green');
    expect(texts(await callTool(runner, 'aiti_inbox'))).toEqual(['build 812 is green']);
    await callTool(runner, 'aiti_inbox', { ack: [msgId] });
    await first.close();

    const second = await startBridge({ dataDir: first.context.config.dataDir });
    const mallory = await connectAgent(second.url, { clientName: 'mallory' });
    const taken = await callTool(mallory, 'aiti_hello', { agentId: 'ci-runner' });
    expect(taken.isError).toBe(true);
    expect(resultText(taken)).toContain('agent id "ci-runner" has an inbox that belongs to another agent');
    const again = await statelessAs(second, 'ci-runner');
    expect((await callTool(again, 'bridge_status')).structuredContent).toMatchObject({ you: 'ci-runner' });
  });
});

describe('an id only the human wrote to, read but not acknowledged', () => {
  it('once its caller is forgotten (the TTL), the messages it read keep it from a session that names it', async () => {
    const bridge = await startBridge({ ttlMs: 200 });
    const runner = await statelessAs(bridge, 'ci-runner');
    await pushTo(bridge, 'ci-runner', 'the release notes are ready');
    expect(texts(await callTool(runner, 'aiti_inbox'))).toEqual(['the release notes are ready']);
    await waitFor(() => bridge.context.agents.get('ci-runner') === undefined, 5000, 'ci-runner to be forgotten');

    const mallory = await connectAgent(bridge.url, { clientName: 'mallory' });
    const taken = await callTool(mallory, 'aiti_hello', { agentId: 'ci-runner' });
    expect(taken.isError).toBe(true);
    expect(resultText(taken)).toContain('agent id "ci-runner" has an inbox that belongs to another agent');
    expect(JSON.stringify(await callTool(mallory, 'aiti_inbox'))).not.toContain('release notes');
  });
});

describe('an id a stateless caller took with aiti_hello', () => {
  it('is no longer shared: another stateless caller needs its key, after a restart too', async () => {
    const first = await startBridge();
    const owner = await connectAgent(first.url, { transport: 'stateless', clientName: 'ci-script' });
    const hello = await callTool(owner, 'aiti_hello', { agentId: 'ci-bot' });
    const { agentKey } = hello.structuredContent as { agentKey?: string };
    expect(agentKey).toMatch(/^[\w-]{20,}$/);
    await pushTo(first, 'ci-bot', 'deploy window opens at 18:00');
    await first.close();

    const second = await startBridge({ dataDir: first.context.config.dataDir });
    const raw = await http(`${second.url}/mcp/mcp`, {
      headers: { 'x-aiti-agent': 'ci-bot', accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'aiti_inbox', arguments: {} } },
    });
    expect(raw.status).toBe(403);
    expect((raw.body as { error: { message: string } }).error.message).toContain(
      'agent id "ci-bot" has an inbox that belongs to another agent',
    );
    expect(JSON.stringify(raw.body)).not.toContain('deploy window');
    const holder = await statelessAs(second, 'ci-bot', agentKey);
    expect(texts(await callTool(holder, 'aiti_inbox'))).toEqual(['deploy window opens at 18:00']);
  });
});

describe('a chosen id with its agentKey', () => {
  it('is not given to a client whose own name it is: that client gets another id, and aiti_hello needs the key', async () => {
    const bridge = await startBridge();
    const chooser = await connectAgent(bridge.url, { clientName: 'some-client' });
    await callTool(chooser, 'aiti_hello', { agentId: 'my-bot' });
    await pushTo(bridge, 'my-bot', 'for the bot that chose this id');
    await chooser.close();

    const namesake = await connectAgent(bridge.url, { clientName: 'my-bot' });
    const status = (await callTool(namesake, 'bridge_status')).structuredContent as { you: string };
    expect(status.you).not.toBe('my-bot');
    const hello = await callTool(namesake, 'aiti_hello', { agentId: 'my-bot' });
    expect(hello.isError).toBe(true);
    expect(JSON.stringify(await callTool(namesake, 'aiti_inbox'))).not.toContain('for the bot');
  });

  it('stays the key: taking the id back issues no new one, and the same key works the next time', async () => {
    const bridge = await startBridge();
    const first = await connectAgent(bridge.url, { clientName: 'laptop' });
    const { agentKey } = (await callTool(first, 'aiti_hello', { agentId: 'frontend-bot' })).structuredContent as {
      agentKey?: string;
    };
    await first.close();
    for (const clientName of ['desktop', 'tablet']) {
      const next = await connectAgent(bridge.url, { clientName });
      const back = await callTool(next, 'aiti_hello', { agentId: 'frontend-bot', agentKey });
      expect(back.isError ?? false, clientName).toBe(false);
      expect(back.structuredContent, clientName).not.toHaveProperty('agentKey');
      await next.close();
    }
    // the human's token takes it too, and leaves the key as it was
    const human = await connectAgent(bridge.url, { clientName: 'helper', token: bridge.token });
    expect((await callTool(human, 'aiti_hello', { agentId: 'frontend-bot' })).structuredContent).not.toHaveProperty(
      'agentKey',
    );
  });

  it('a key for an id that has none is refused, saying the key does not match', async () => {
    const bridge = await startBridge();
    const agent = await connectAgent(bridge.url, { clientName: 'guesser' });
    const hello = await callTool(agent, 'aiti_hello', { agentId: 'never-taken', agentKey: 'a-guessed-key' });
    expect(hello.isError).toBe(true);
    expect(resultText(hello)).toContain('agentKey does not match agent id "never-taken"');
  });
});

describe("a client's own name", () => {
  it('is taken back with aiti_hello once the session that held it is gone (it got alice-2 meanwhile)', async () => {
    const bridge = await startBridge();
    const first = await connectAgent(bridge.url, { clientName: 'alice' });
    await callTool(first, 'aiti_hello');
    await pushTo(bridge, 'alice', 'left for alice');
    const second = await connectAgent(bridge.url, { clientName: 'alice' });
    expect((await callTool(second, 'bridge_status')).structuredContent).toMatchObject({ you: 'alice-2' });
    await first.close();
    await waitFor(() => !isOnline(bridge, 'alice'), 5000, 'alice to be offline');
    const back = await callTool(second, 'aiti_hello', { agentId: 'alice' });
    expect(back.isError ?? false).toBe(false);
    expect(texts(await callTool(second, 'aiti_inbox'))).toEqual(['left for alice']);
  });
});

describe('agent-ids.jsonl', () => {
  it('is 0600 and gains no line when the same client comes back, or the bridge restarts', async () => {
    const bridge = await startBridge();
    for (let i = 0; i < 3; i++) {
      await (await connectAgent(bridge.url, { clientName: 'claude-code' })).close();
      await waitFor(() => !isOnline(bridge, 'claude-code'), 5000, 'claude-code to be offline');
    }
    const file = claimsFile(bridge);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const lines = `${JSON.stringify({ id: 'claude-code', owner: 'session' })}\n`;
    expect(readFileSync(file, 'utf8')).toBe(lines);
    // a restart that takes no id writes nothing
    await bridge.close();
    await startBridge({ dataDir: bridge.context.config.dataDir });
    expect(readFileSync(file, 'utf8')).toBe(lines);
  });

  it('damaged: each bad line is skipped with a warning that names it, and every other line still counts', async () => {
    const first = await startBridge();
    const alice = await connectAgent(first.url, { clientName: 'alice' });
    await callTool(alice, 'aiti_hello');
    await first.close();
    const file = claimsFile(first);
    const whole = readFileSync(file, 'utf8').split('\n').length - 1;
    appendFileSync(
      file,
      [
        '{"id":"admin-bot","owner":"admin"}',
        '{"id":42,"owner":"session"}',
        '{"id":"odd-key","owner":"session","keyHash":12345}',
        '{"id":"no-owner"}',
        JSON.stringify({ id: 'after-damage', owner: 'session' }),
        '{"id":"torn","ow',
      ].join('\n'),
    );
    const warnings = [
      `line ${whole + 1} of ${file} gives agent id "admin-bot" the owner "admin", not "session" or "stateless"; skipped (the other lines are read as usual)`,
      `line ${whole + 2} of ${file} names no agent id; skipped (the other lines are read as usual)`,
      `line ${whole + 3} of ${file} gives agent id "odd-key" a key hash that is no string; skipped (the other lines are read as usual)`,
      `line ${whole + 4} of ${file} gives agent id "no-owner" the owner none, not "session" or "stateless"; skipped (the other lines are read as usual)`,
      `line ${whole + 6} of ${file} is not JSON (a write cut short by a crash?); skipped (the other lines are read as usual)`,
    ].map((line) => `[aiti:agents] warn: ${line}`);

    const dataDir = first.context.config.dataDir;
    const second = await warningsOf(() => startBridge({ dataDir }));
    expect(second.warnings).toEqual(warnings);
    // the first id taken after the torn line starts a line of its own: it is still taken after the next restart
    const late = await connectAgent(second.bridge.url, { transport: 'stateless', clientName: 'ci-script' });
    const { agentKey } = (await callTool(late, 'aiti_hello', { agentId: 'late-bot' })).structuredContent as {
      agentKey?: string;
    };
    const other = await connectAgent(second.bridge.url, { clientName: 'mallory' });
    // alice's line, and the whole line after the damaged ones, keep their ids
    expect((await callTool(other, 'aiti_hello', { agentId: 'alice' })).isError).toBe(true);
    await expect(statelessAs(second.bridge, 'after-damage')).rejects.toThrow(
      // the SDK quotes the refusal's JSON body
      /agent id \\"after-damage\\" has an inbox that belongs to another agent/,
    );
    // an owner that is neither a session nor a stateless caller, and a key that is no hash, are no claim
    for (const agentId of ['admin-bot', 'torn']) {
      expect((await callTool(other, 'aiti_hello', { agentId })).isError ?? false, agentId).toBe(false);
    }
    const oddKey = await connectAgent(second.bridge.url, { clientName: 'odd-key' });
    expect((await callTool(oddKey, 'aiti_hello', { agentId: 'odd-key' })).isError ?? false).toBe(false);
    await second.bridge.close();

    const third = await warningsOf(() => startBridge({ dataDir }));
    expect(third.warnings).toEqual(warnings);
    await expect(statelessAs(third.bridge, 'late-bot')).rejects.toThrow(/agent id \\"late-bot\\" has an inbox/);
    const holder = await statelessAs(third.bridge, 'late-bot', agentKey);
    expect((await callTool(holder, 'bridge_status')).structuredContent).toMatchObject({ you: 'late-bot' });
  });
});

import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, type TestContext } from 'vitest';
import { AgentTokens } from '../../bridge/agents/tokens.js';
import type { MessagesAnswer, PushAnswer, StateEvent } from '../../bridge/protocol/index.js';
import { http, onCleanup, tempDir } from '../helpers/bridge.js';
import { CHILD_TOKEN, kill, spawnBridge } from '../helpers/child-bridge.js';
import { callTool, connectAgent } from '../helpers/mcp.js';
import { SseClient } from '../helpers/sse.js';

const BIN = fileURLToPath(new URL('../../bin/aiti-bridge.js', import.meta.url));
const IS_ROOT = process.getuid?.() === 0;
/** the first bytes of a PNG: what the bridge checks an image's type by */
const PNG_HEADER = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const NEEDS_ROOT = 'needs root to mount a tmpfs (CI runs as root); run the suite as root to include it';

/** A small tmpfs of its own, unmounted after the test (root only). */
function smallDisk(ctx: TestContext, size = '2m'): string {
  if (!IS_ROOT) ctx.skip(NEEDS_ROOT);
  const dir = tempDir('aiti-tmpfs-');
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir]);
  onCleanup(() => void execFileSync('umount', ['-l', dir]));
  return dir;
}

async function push(url: string, text: string): Promise<{ status: number; id?: string; error?: string }> {
  const res = await http(`${url}/bridge/push`, { token: CHILD_TOKEN, body: { to: 'claude', text } });
  if (res.status === 200) return { status: 200, id: (res.body as PushAnswer).delivered[0]?.msgId ?? '' };
  return { status: res.status, error: (res.body as { error?: string }).error ?? '' };
}

async function stateOf(url: string): Promise<StateEvent> {
  const stream = await SseClient.open(`${url}/bridge/sse?role=ai&token=${CHILD_TOKEN}`);
  const state = (await stream.next('state')).data as StateEvent;
  stream.close();
  return state;
}

async function history(url: string): Promise<string[]> {
  const res = await http(`${url}/bridge/messages?agentId=claude&limit=1000`, { token: CHILD_TOKEN });
  return (res.body as MessagesAnswer).messages.map((m) => m.id);
}

describe('the data dir fails under the bridge', () => {
  it('a full disk (ENOSPC) refuses pushes 503 and says so; once space is freed pushes work, and a SIGKILL loses none acknowledged', async (ctx) => {
    const disk = smallDisk(ctx);
    const first = await spawnBridge(disk);
    const agent = await connectAgent(first.url, { clientName: 'claude' });
    const acknowledged: string[] = [];
    const refused: string[] = [];
    const body = (i: number) => `message ${i} ${'x'.repeat(4000)}`;
    for (let i = 0; i < 5; i++) acknowledged.push((await push(first.url, body(i))).id ?? '');
    // most of the disk goes to another file, then the journal fills the rest
    writeFileSync(join(disk, 'filler'), Buffer.alloc(1_700_000));
    for (let i = 5; refused.length < 5 && i < 1000; i++) {
      const answer = await push(first.url, body(i));
      if (answer.id) acknowledged.push(answer.id);
      else {
        expect(answer.status).toBe(503);
        refused.push(answer.error ?? '');
      }
    }
    expect(refused[0]).toMatch(/ENOSPC.*free disk space/);
    const status = await callTool(agent, 'bridge_status');
    expect(status.structuredContent).toMatchObject({
      storage: { ok: false, problem: expect.stringMatching(/ENOSPC/) },
    });

    rmSync(join(disk, 'filler'));
    for (let i = 0; i < 5; i++) {
      const answer = await push(first.url, `after ${i}`);
      expect(answer.status).toBe(200);
      acknowledged.push(answer.id ?? '');
    }
    expect((await callTool(agent, 'bridge_status')).structuredContent).toMatchObject({ storage: { ok: true } });
    await kill(first.child);

    const second = await spawnBridge(disk);
    const stored = await history(second.url);
    expect(acknowledged.filter((id) => !stored.includes(id))).toEqual([]);
    // nothing refused came back, and replay met no torn or unreadable line
    expect(stored).toHaveLength(acknowledged.length);
    expect(second.stderr()).not.toMatch(/unreadable line|torn last line/);
  }, 60_000);

  it('on a full disk the human’s decisions (an answer, one with an image, an allowed origin) answer 503 and change nothing', async (ctx) => {
    const disk = smallDisk(ctx);
    const bridge = await spawnBridge(disk);
    const agent = await connectAgent(bridge.url, { clientName: 'claude' });
    const asked = await callTool(agent, 'user_confirm', { prompt: 'Ship it?', async: true, timeoutMs: 600_000 });
    const { askId } = asked.structuredContent as { askId: string };
    // fill what is left, a chunk at a time, until the disk refuses
    for (let i = 0; ; i++) {
      try {
        writeFileSync(join(disk, `filler-${i}`), Buffer.alloc(64 * 1024));
      } catch {
        break;
      }
    }
    // and what is left in the last page of the journal's file (tmpfs gives out whole pages)
    for (let i = 0; i < 100 && (await push(bridge.url, `slack ${i} ${'x'.repeat(500)}`)).status === 200; i++);
    const answered = await http(`${bridge.url}/bridge/answer`, {
      token: CHILD_TOKEN,
      body: { askId, action: 'answer', value: true },
    });
    expect(answered.status).toBe(503);
    expect((answered.body as { error: string }).error).toMatch(/ENOSPC/);
    // an answer or a push with a pasted screenshot: the image cannot be kept, so neither is taken, and no part of
    // the image is left behind
    const screenshot = {
      mimeType: 'image/png',
      data: Buffer.concat([Buffer.from(PNG_HEADER), Buffer.alloc(200_000)]).toString('base64'),
    };
    const withImage = await http(`${bridge.url}/bridge/answer`, {
      token: CHILD_TOKEN,
      body: { askId, action: 'answer', value: true, images: [screenshot] },
    });
    expect(withImage.status).toBe(503);
    expect((withImage.body as { error: string }).error).toMatch(/could not keep the image .*ENOSPC/);
    const pushed = await http(`${bridge.url}/bridge/push`, {
      token: CHILD_TOKEN,
      body: { to: 'claude', text: 'see this', images: [screenshot] },
    });
    expect(pushed.status).toBe(503);
    expect(readdirSync(join(disk, 'aiti-bridge', 'images'))).toEqual([]);
    const allowed = await http(`${bridge.url}/bridge/allow-origin`, {
      token: CHILD_TOKEN,
      body: { origin: 'https://staging.example.com' },
    });
    expect(allowed.status).toBe(503);
    const state = await stateOf(bridge.url);
    expect(state.asks.map((a) => a.askId)).toEqual([askId]);
    for (let i = 0; ; i++) {
      try {
        rmSync(join(disk, `filler-${i}`));
      } catch {
        break;
      }
    }
    const again = await http(`${bridge.url}/bridge/answer`, {
      token: CHILD_TOKEN,
      body: { askId, action: 'answer', value: true },
    });
    expect(again.status).toBe(200);
  });

  it('quick replies that do not fit on the disk answer 503 and keep the saved list whole', async (ctx) => {
    const disk = smallDisk(ctx);
    const bridge = await spawnBridge(disk);
    const reply = (id: string, text: string) => ({ id, kind: 'answer', text, uses: 0 });
    const saved = { replies: [reply('ship', 'Ship it')] };
    expect(
      (await http(`${bridge.url}/bridge/quick-replies`, { token: CHILD_TOKEN, method: 'PUT', body: saved })).status,
    ).toBe(200);
    for (let i = 0; ; i++) {
      try {
        writeFileSync(join(disk, `filler-${i}`), Buffer.alloc(64 * 1024));
      } catch {
        break;
      }
    }
    // room for part of the new list only: a write that stops short must not become the list
    rmSync(join(disk, 'filler-0'));
    const many = { replies: Array.from({ length: 150 }, (_, i) => reply(`r${i}`, `${i} ${'y'.repeat(1990)}`)) };
    const refused = await http(`${bridge.url}/bridge/quick-replies`, { token: CHILD_TOKEN, method: 'PUT', body: many });
    expect(refused.status).toBe(503);
    expect((refused.body as { error: string }).error).toMatch(
      /quick replies could not be saved: .* failed with ENOSPC; nothing was changed/,
    );
    expect((await http(`${bridge.url}/bridge/quick-replies`, { token: CHILD_TOKEN })).body).toEqual(saved);
    // and no half-written temp file keeps the disk full
    expect(readdirSync(join(disk, 'aiti-bridge')).filter((f) => f.includes('quick-replies'))).toEqual([
      'quick-replies.json',
    ]);
  });

  it('agent tokens made on a full disk fail whole: once space is back the next one is made, and every token made works', async (ctx) => {
    const disk = smallDisk(ctx);
    const tokens = new AgentTokens(join(disk, 'agent-tokens.jsonl'));
    const made = [(await tokens.create('first')).token];
    for (let i = 0; ; i++) {
      try {
        writeFileSync(join(disk, `filler-${i}`), Buffer.alloc(64 * 1024));
      } catch {
        break;
      }
    }
    // the file's last page fills up: the line that crosses into the next one cannot be written whole
    let refusal = '';
    for (let i = 0; i < 100 && !refusal; i++) {
      try {
        made.push((await tokens.create(`box-${i}`)).token);
      } catch (error) {
        refusal = (error as Error).message;
      }
    }
    expect(refusal).toMatch(/ENOSPC/);
    rmSync(join(disk, 'filler-0'));
    made.push((await tokens.create('after')).token);
    // read again from the file, as a restarted bridge or the CLI would
    const reread = new AgentTokens(join(disk, 'agent-tokens.jsonl'));
    for (const token of made) expect((await reread.verify(token))?.id).toBeDefined();
    expect(reread.list().map((r) => r.name)).toHaveLength(made.length);
  });

  it('a push to all that one agent’s journal refuses says for whom it was stored, and who should get it again', async () => {
    const dataDir = tempDir();
    const bridge = await spawnBridge(dataDir);
    await connectAgent(bridge.url, { clientName: 'kept' });
    await connectAgent(bridge.url, { clientName: 'lost' });
    for (const to of ['kept', 'lost'])
      expect((await http(`${bridge.url}/bridge/push`, { token: CHILD_TOKEN, body: { to, text: 'hi' } })).status).toBe(
        200,
      );
    rmSync(join(dataDir, 'aiti-bridge', 'sessions', 'lost'), { recursive: true });
    const res = await http(`${bridge.url}/bridge/push`, { token: CHILD_TOKEN, body: { to: 'all', text: 'to all' } });
    expect(res.status).toBe(503);
    expect((res.body as { error: string }).error).toMatch(
      /could not be stored for lost .*; it was stored for kept — send it again to lost only/,
    );
  });

  it('a data dir deleted while the bridge runs: no push is acknowledged into it, and bridge_status says why', async () => {
    const dataDir = tempDir();
    const first = await spawnBridge(dataDir);
    const agent = await connectAgent(first.url, { clientName: 'claude' });
    expect((await push(first.url, 'before')).status).toBe(200);
    rmSync(join(dataDir, 'aiti-bridge'), { recursive: true, force: true });
    const after = [];
    for (let i = 0; i < 5; i++) after.push(await push(first.url, `after ${i}`));
    expect(after.map((a) => a.status)).toEqual([503, 503, 503, 503, 503]);
    expect(after[0]?.error).toMatch(/was deleted while the bridge wrote to it/);
    expect(after[4]?.error).toMatch(/journal folder .* is gone .*restart the bridge/);
    const status = await callTool(agent, 'bridge_status');
    expect(status.structuredContent).toMatchObject({ storage: { ok: false, problem: expect.stringMatching(/gone/) } });
    await kill(first.child);
    // a restart makes a new data dir; nothing that was refused turns up in it
    const second = await spawnBridge(dataDir);
    expect(await history(second.url)).toEqual([]);
  });

  it('a read-only data dir stops the bridge at start with one line that says so', async (ctx) => {
    const disk = smallDisk(ctx);
    mkdirSync(join(disk, 'aiti-bridge'));
    writeFileSync(join(disk, 'aiti-bridge', 'token'), 'a-token-made-before\n', { mode: 0o600 });
    execFileSync('mount', ['-o', 'remount,ro', disk]);
    const child = spawn(process.execPath, [BIN, '--port', '0', '--data-dir', disk], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^aiti-bridge: the data dir ".*aiti-bridge" cannot be written \(EROFS.*--data-dir/);
  });
});

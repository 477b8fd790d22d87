import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { http, onCleanup, startBridge, tempDir } from '../helpers/bridge.js';
import { callTool, connectAgent, resultText } from '../helpers/mcp.js';
import { ScriptedPage } from '../helpers/scripted-page.js';
import { SseClient } from '../helpers/sse.js';
import { waitFor } from '../helpers/wait.js';

/** The low findings of issue 16, each as the attack that worked before. */

const BIN = fileURLToPath(new URL('../../bin/aiti-bridge.js', import.meta.url));

describe('low findings', () => {
  it('/bridge/event answers an unknown pageId exactly like a known one with a wrong secret (no probing oracle)', async () => {
    const bridge = await startBridge();
    const page = await ScriptedPage.connect(bridge.url);
    const probe = async (pageId: string) => {
      const res = await http(`${bridge.url}/bridge/event`, {
        body: { pageId, secret: 'guess', type: 'page_log', payload: [] },
      });
      return { status: res.status, body: JSON.stringify(res.body).replace(pageId, '<id>') };
    };
    const live = await probe(page.pageId);
    expect(live.status).toBe(403);
    expect(await probe('p999')).toEqual(live);
  });

  it('a legacy page cannot be taken over by re-claiming its instanceId without a secret', async () => {
    const bridge = await startBridge();
    const origin = 'http://localhost:5173';
    const legacy = await SseClient.open(`${bridge.url}/bridge/sse?role=page&instanceId=old-1`, { origin });
    onCleanup(() => legacy.close());
    await legacy.next('hello');
    const claim = await http(`${bridge.url}/bridge/claim`, {
      headers: { origin },
      body: { instanceId: 'old-1', pageKey: 'k', url: `${origin}/` },
    });
    expect(claim.status).toBe(403);
    expect(claim.body).toMatchObject({ field: 'instanceId' });
    expect(JSON.stringify(claim.body)).toContain('connected without a secret; claim with a new instanceId');
  });

  it('the token is taken from ?token= only on the window stream, never on other routes', async () => {
    const bridge = await startBridge();
    const token = encodeURIComponent(bridge.token);
    for (const path of ['/bridge/sessions', '/bridge/inbox-status', '/bridge/messages?agentId=a&']) {
      const res = await http(`${bridge.url}${path}${path.includes('?') ? '' : '?'}token=${token}`);
      expect(res.status, path).toBe(401);
      expect(JSON.stringify(res.body)).toContain('?token= is accepted only on GET /bridge/sse?role=ai');
    }
    const pushed = await http(`${bridge.url}/bridge/push?token=${token}`, { body: { text: 'hi' } });
    expect(pushed.status).toBe(401);
    const stream = await SseClient.open(`${bridge.url}/bridge/sse?role=ai&token=${token}`);
    onCleanup(() => stream.close());
    expect(stream.status).toBe(200);
    expect((await http(`${bridge.url}/bridge/sessions`, { token: bridge.token })).status).toBe(200);
  });

  it('--help tells people that --token shows in ps and to prefer the token file or the environment', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [BIN, '--help']);
    const line = stdout.split('\n').find((l) => l.trimStart().startsWith('--token'));
    expect(line).toContain('shows in ps');
    expect(line).toContain('prefer the token file or AITI_BRIDGE_TOKEN');
    expect(stdout).toContain('--project-root');
  });

  it('with --project-root, file_stat and open_file reach nothing outside it', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src', 'App.tsx'), '');
    // the editor copies each file it opens into `opened`, under its own name
    const opened = tempDir();
    const bridge = await startBridge({ projectRoot: root, openCmd: `cp {file} ${opened}/` });
    const agent = await connectAgent(bridge.url);
    const inside = await callTool(agent, 'file_stat', { path: join(root, 'src', 'App.tsx') });
    expect(inside.structuredContent).toMatchObject({ exists: true, type: 'file' });
    const missingInside = await callTool(agent, 'file_stat', { path: join(root, 'dist', 'index.js') });
    expect(missingInside.structuredContent).toMatchObject({ exists: false });
    for (const path of ['/etc/passwd', join(root, '..', 'elsewhere.txt')]) {
      const outside = await callTool(agent, 'file_stat', { path });
      expect(outside.isError, path).toBe(true);
      expect(resultText(outside)).toContain('is outside the project root');
    }

    const page = await ScriptedPage.connect(bridge.url);
    const outsideFile = join(tempDir(), 'notes.txt');
    writeFileSync(outsideFile, 'not in the project\n');
    const open = (file: string) =>
      http(`${bridge.url}/bridge/event`, {
        body: { pageId: page.pageId, secret: page.secret, type: 'open_file', payload: { file } },
      });
    expect((await open(outsideFile)).status).toBe(204);
    expect((await open(join(root, 'src', 'App.tsx'))).status).toBe(204);
    await waitFor(() => existsSync(join(opened, 'App.tsx')), 5000, 'the editor for a file inside the root');
    // the file outside was asked for first: had the editor been started for it, it had been started before
    expect(readdirSync(opened)).toEqual(['App.tsx']);
  });
});

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { patienceOf, SDK_DEFAULT_TIMEOUT_MS } from '../../bridge/mcp/patience.js';
import { CLIENT_TIMEOUT_MS, type InboxResult } from '../../bridge/protocol/index.js';
import { configuredToolTimeoutMs } from '../../bridge/register/client-limits.js';
import { startBridge, tempDir } from '../helpers/bridge.js';
import { callTool, connectAgent, resultText } from '../helpers/mcp.js';
import { openWindow } from '../helpers/window.js';

/**
 * Issue 35: no client cuts a call that asked the human. Codex stops waiting for a tool call after 300 s and Gemini
 * CLI after 600 s whatever progress it gets; a sync ask answers before its client's limit that it is still open,
 * and the human's answer then comes in the inbox.
 */
describe('a sync ask and the time its client waits', () => {
  it('answers "still open" before the client stops waiting, and the later answer arrives in aiti_inbox', async () => {
    const bridge = await startBridge();
    const window = await openWindow(bridge);
    const agent = await connectAgent(bridge.url, { clientName: 'impatient', structured: false });
    const started = performance.now();
    const call = agent.callTool({
      name: 'user_confirm',
      arguments: { prompt: 'Deploy the release?' },
      _meta: { [CLIENT_TIMEOUT_MS]: 5000 },
    });
    const card = await window.nextAsk();
    const early = (await call) as { content: Array<{ text?: string }> };
    const waited = performance.now() - started;
    // 3 s before the client's 5 s: the client still listens
    expect(waited).toBeLessThan(5000);
    const text = early.content.map((c) => c.text).join('\n');
    expect(text).toContain(card.askId);
    expect(text).toMatch(/still open on their screen/);
    expect(text).toMatch(/aiti_inbox/);
    // the card is still there, and the human's answer is taken
    expect((await window.act({ askId: card.askId, action: 'answer', value: true, note: 'ship it' })).status).toBe(200);
    const inbox = await callTool(agent, 'aiti_inbox');
    expect(resultText(inbox)).toContain(card.askId);
    expect(resultText(inbox)).toContain('ship it');
  });

  it('withdraws a page command waiting for the human when the client stops waiting: it did not run', async () => {
    const bridge = await startBridge();
    const window = await openWindow(bridge);
    const { ScriptedPage } = await import('../helpers/scripted-page.js');
    const ran: string[] = [];
    const page = await ScriptedPage.connect(bridge.url, {
      handler: (cmd) => {
        ran.push(cmd);
        return { ok: true };
      },
    });
    const agent = await connectAgent(bridge.url, { clientName: 'impatient', structured: false });
    const call = agent.callTool({
      name: 'page_exec',
      arguments: { pageId: page.pageId, cmd: 'Runtime.evaluate', args: { expression: '1+1' } },
      _meta: { [CLIENT_TIMEOUT_MS]: 4000 },
    });
    const card = await window.nextAsk();
    const result = (await call) as { isError?: boolean; content: Array<{ text?: string }> };
    expect(result.isError).toBe(true);
    expect(result.content.map((c) => c.text).join('\n')).toMatch(/did not run.*stops waiting for a call after 4 s/);
    expect((await window.act({ askId: card.askId, action: 'answer', value: true })).status).toBe(409);
    expect(ran).toEqual([]);
  });

  it("knows the clients' own limits by their names, and leaves a script that named no client alone", () => {
    expect(patienceOf(undefined, 'codex-mcp-client')).toBe(300_000);
    expect(patienceOf(undefined, 'gemini-cli-mcp-client')).toBe(600_000);
    expect(patienceOf(undefined, 'claude-code')).toBeUndefined();
    expect(patienceOf(undefined, 'some-editor')).toBe(SDK_DEFAULT_TIMEOUT_MS);
    expect(patienceOf(undefined, undefined)).toBeUndefined();
    expect(patienceOf({ [CLIENT_TIMEOUT_MS]: 12_000 }, 'codex-mcp-client')).toBe(12_000);
  });
});

describe("the shim reads how long its client waits from the client's own settings", () => {
  function home(files: Record<string, string>): string {
    const dir = tempDir();
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(dir, name, '..'), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    return dir;
  }
  const shim = { command: '/usr/bin/node', args: ['/opt/aiti/bin/aiti-bridge.js', '--stdio'] };

  it('Codex: tool_timeout_sec of the entry that runs the shim', async () => {
    const dir = home({
      '.codex/config.toml': `[mcp_servers.other]\ncommand = "x"\ntool_timeout_sec = 5\n\n[mcp_servers.aiti]\ncommand = "${shim.command}"\nargs = ${JSON.stringify(shim.args)}\ntool_timeout_sec = 45\n`,
    });
    expect(await configuredToolTimeoutMs('codex-mcp-client', { HOME: dir })).toBe(45_000);
    expect(await configuredToolTimeoutMs('codex-mcp-client', { HOME: tempDir() })).toBeUndefined();
  });

  it("Gemini CLI: the entry's timeout in settings.json", async () => {
    const dir = home({
      '.gemini/settings.json': JSON.stringify({ mcpServers: { aiti: { ...shim, timeout: 30_000 } } }),
    });
    expect(await configuredToolTimeoutMs('gemini-cli-mcp-client', { HOME: dir })).toBe(30_000);
  });

  it("Claude Code: the entry's timeout, else MCP_TOOL_TIMEOUT; AITI_CLIENT_TIMEOUT_MS above all", async () => {
    const dir = home({
      '.claude.json': `// comments are allowed\n${JSON.stringify({ mcpServers: { aiti: { type: 'stdio', ...shim, timeout: 20_000 } } })}`,
    });
    expect(await configuredToolTimeoutMs('claude-code', { HOME: dir, MCP_TOOL_TIMEOUT: '9000' })).toBe(20_000);
    expect(await configuredToolTimeoutMs('claude-code', { HOME: tempDir(), MCP_TOOL_TIMEOUT: '9000' })).toBe(9000);
    expect(await configuredToolTimeoutMs('claude-code', { HOME: tempDir() })).toBeUndefined();
    expect(await configuredToolTimeoutMs('claude-code', { HOME: dir, AITI_CLIENT_TIMEOUT_MS: '7000' })).toBe(7000);
  });

  it('passes it to the bridge with each tools/call, so an ask through the shim answers in time', async () => {
    const bridge = await startBridge();
    const window = await openWindow(bridge);
    const agent = await connectAgent(bridge.url, {
      transport: 'stdio',
      clientName: 'impatient-shim',
      env: { AITI_CLIENT_TIMEOUT_MS: '4500' },
    });
    const call = callTool(agent, 'user_confirm', { prompt: 'Through the shim?' });
    const card = await window.nextAsk();
    const result = await call;
    expect(resultText(result)).toContain(card.askId);
    expect((result.structuredContent as { status?: string }).status).toBe('open');
    expect((await window.act({ askId: card.askId, action: 'answer', value: false })).status).toBe(200);
    const inbox = (await callTool(agent, 'aiti_inbox')).structuredContent as InboxResult;
    expect(inbox.messages.map((m) => m.payload)).toContainEqual(
      expect.objectContaining({ askId: card.askId, status: 'answered', value: false }),
    );
  });
});

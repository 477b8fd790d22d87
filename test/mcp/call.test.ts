import { describe, expect, it } from 'vitest';
import { startBridge, tempDir } from '../helpers/bridge.js';
import { cli } from '../helpers/cli.js';
import { ScriptedPage } from '../helpers/scripted-page.js';

describe('aiti-bridge call', () => {
  it('runs one tool against the running bridge and prints its result', async () => {
    const bridge = await startBridge();
    await ScriptedPage.connect(bridge.url, { handler: () => ({ clicked: true }) });
    const res = await cli(['call', 'page_exec', JSON.stringify({ cmd: 'Input.click', args: { target: 'e1' } })], {
      AITI_BRIDGE_URL: bridge.url,
    });
    expect(res.code).toBe(0);
    // what the agent reads: the result as plain lines (the JSON is the tool's structuredContent)
    expect(res.stdout).toBe('clicked: true\n');
  });

  it('exits non-zero with the error on stderr when the tool answers an error', async () => {
    const bridge = await startBridge();
    const res = await cli(['call', 'file_stat', '{"path":"relative/file"}'], { AITI_BRIDGE_URL: bridge.url });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('path "relative/file" is relative');
    expect(res.stdout).toBe('');
  });

  it('names the bad field before calling, and lists the tools without one', async () => {
    const bridge = await startBridge();
    const bad = await cli(['call', 'page_logs', '{"limit":"ten"}'], { AITI_BRIDGE_URL: bridge.url });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('field "limit"');
    const list = await cli(['call'], { AITI_BRIDGE_URL: bridge.url });
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^page_exec\s+Run a page command$/m);
  });

  it('with --mcp-auth reads the token from the data dir given with --data-dir', async () => {
    const dataDir = tempDir();
    const bridge = await startBridge({ mcpAuth: true, dataDir });
    const res = await cli(['call', '--mcp-auth', '--data-dir', dataDir, 'bridge_status'], {
      AITI_BRIDGE_URL: bridge.url,
    });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('you: aiti-cli');
    const refused = await cli(['call', 'bridge_status'], { AITI_BRIDGE_URL: bridge.url });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('requires its token (401); add --mcp-auth');
  });

  it('says when the bridge is not running', async () => {
    const res = await cli(['call', 'bridge_status'], { AITI_BRIDGE_URL: 'http://127.0.0.1:9' });
    expect(res.code).toBe(3);
    expect(res.stderr).toContain('cannot reach the bridge at http://127.0.0.1:9');
  });
});

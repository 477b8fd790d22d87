import { afterEach, describe, expect, it, vi } from 'vitest';
import { startBridge } from '../helpers/bridge.js';
import { callTool, connectAgent, resultText } from '../helpers/mcp.js';
import { ScriptedPage } from '../helpers/scripted-page.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a navigation with waitFor whose text never shows', () => {
  it("tells the agent what did not show, at args.waitFor, as the page's error and not as a bridge bug", async () => {
    const bridge = await startBridge();
    const logged: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      logged.push(String(chunk));
      return true;
    });
    await ScriptedPage.connect(bridge.url, {
      url: 'http://localhost:3000/app',
      handler: (cmd) => {
        if (cmd === 'Page.reload') return { url: 'http://localhost:3000/app', reloaded: true };
        throw new Error('Page.waitFor: "Saved" did not show within 10000 ms');
      },
    });
    const agent = await connectAgent(bridge.url);

    const result = await callTool(agent, 'page_exec', { cmd: 'Page.reload', args: { waitFor: 'Saved' } });

    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({
      error: expect.stringMatching(
        /^page_exec: "Saved" did not show within 10000 ms after the navigation \(the new document/,
      ),
      field: 'args.waitFor',
    });
    expect(resultText(result)).toContain('"Saved" did not show within 10000 ms after the navigation');
    // the dispatcher logs only what it takes for a bug (anything but the bridge's own errors)
    expect(logged.join('')).not.toContain('tool page_exec failed');
  });
});

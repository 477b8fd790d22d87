import { describe, expect, it } from 'vitest';
import { startBridge } from '../helpers/bridge.js';
import { connectAgent } from '../helpers/mcp.js';
import { openWindowPage } from './window-page.js';

/**
 * Issue 41, finding 4: the window said how to connect a page but never how to connect an agent, and its empty state
 * said an agent appears once it "calls aiti_hello", though an SDK client appears without it.
 */
describe('the window shows how to connect an agent', () => {
  it("next to Connect a page: the MCP URL, the register command and each client's line, with this bridge's port", async () => {
    const bridge = await startBridge();
    const page = await openWindowPage(bridge.uiUrl);
    const help = page.locator('details.connect-help', { hasText: 'Connect an agent' });
    expect(await help.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    const lines = await help
      .locator('.copyable')
      .evaluateAll((rows) =>
        rows.map((row) => [row.querySelector('.copyable-label')?.textContent, row.querySelector('code')?.textContent]),
      );
    const mcp = `${bridge.url}/mcp/mcp`;
    expect(lines).toEqual([
      ['MCP endpoint (Streamable HTTP)', mcp],
      ['Add the stdio shim to every MCP client on this machine', 'aiti-bridge --register-shim'],
      ['Claude Code', `claude mcp add --transport http aiti ${mcp}`],
      ['Codex', `codex mcp add aiti --env AITI_BRIDGE_URL=${bridge.url} -- aiti-bridge --stdio`],
      ['Gemini CLI', `gemini mcp add --transport http aiti ${mcp}`],
      [
        'An MCP SDK client (TypeScript)',
        `const client = new Client({ name: 'my-agent', version: '1.0.0' });\nawait client.connect(new StreamableHTTPClientTransport(new URL('${mcp}')));`,
      ],
    ]);
    // the Vite snippet names this bridge too, as the script tag and the bookmarklet do
    await expect
      .poll(() => page.locator('details.connect-help', { hasText: 'Connect a page' }).textContent())
      .toContain(`plugins: [aitiBridge({ bridgeUrl: '${bridge.url}' })]`);

    expect(await page.locator('section[aria-label="agents"] .empty').textContent()).toBe(
      'No agent yet: an MCP client appears here once it connects.',
    );
    // an SDK client at the URL shown, which never calls aiti_hello, appears, as the empty state says
    await connectAgent(lines[0]?.[1] ?? '', { clientName: 'my-agent' });
    await page.locator('section[aria-label="agents"] .row-title', { hasText: 'my-agent' }).waitFor();
    expect(await help.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    if (process.env.AITI_LOOK)
      for (const colorScheme of ['light', 'dark'] as const) {
        const look = await openWindowPage(bridge.uiUrl, { colorScheme, width: 1280, height: 800 });
        await look.screenshot({ path: `${process.env.AITI_LOOK}/connect-agent-${colorScheme}.png` });
      }
  });
});

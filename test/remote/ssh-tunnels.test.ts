import { request } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { AskOutcome } from '../../bridge/protocol/index.js';
import { http, startBridge } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { callTool, connectAgent } from '../helpers/mcp.js';
import { freePort, sshdUnavailable, startSshd } from '../helpers/sshd.js';
import { waitFor } from '../helpers/wait.js';
import { serveFixture } from '../fixtures/server.js';
import { agentTag, ensurePageAgentBuilt, openPage } from '../page/harness.js';
import { ensureWindowBuilt } from '../window/build-window.js';

/**
 * Tunnels as developers open them, through a real OpenSSH server on loopback. `ssh -R`: an agent on a dev box
 * reaches the bridge on the laptop; here the "dev box" end is the port sshd opens. `ssh -L`: the window on the
 * laptop, the bridge on a dev box. Everything that arrives through a tunnel comes from 127.0.0.1, so on the
 * remote listener only the agent token lets anything in.
 */

const unavailable = sshdUnavailable();

beforeAll(async () => {
  ensurePageAgentBuilt();
  await ensureWindowBuilt();
}, 150_000);

const outcome = (result: unknown) => AskOutcome.parse((result as { structuredContent?: unknown }).structuredContent);

/** A raw MCP initialize, as any client's first request; returns status, the WWW-Authenticate header and the body. */
function initialize(url: string, token?: string): Promise<{ status: number; authenticate?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            ...(res.headers['www-authenticate'] ? { authenticate: res.headers['www-authenticate'] } : {}),
            body,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'intruder', version: '1' } },
      }),
    );
  });
}

describe('tunnels', () => {
  it.skipIf(unavailable)(
    `over ssh -R an agent with its token drives a page and asks the human; without one, or revoked, it gets 401 and nothing else${unavailable ? ` (skipped: ${unavailable})` : ''}`,
    { timeout: 90_000 },
    async () => {
      const bridge = await startBridge({ remote: { host: '127.0.0.1', port: 0 } });
      const site = await serveFixture({
        '/': `<!doctype html><html><head><title>Cart</title>${agentTag(bridge)}</head><body>
<h1 id="count">0 items</h1><button id="add" onclick="this.previousElementSibling.textContent = '1 items'">Add to cart</button>
</body></html>`,
      });
      const { newPage } = await launchBrowser();
      const tab = await newPage();
      await openPage(bridge, tab, `${site.url}/`);

      // the dev box's end of the tunnel: a port sshd opens and forwards to the laptop's remote listener
      const sshd = await startSshd();
      const devBoxPort = await freePort();
      await sshd.tunnel(['-R', `127.0.0.1:${devBoxPort}:127.0.0.1:${bridge.remote?.port}`], '127.0.0.1', devBoxPort);
      const devBox = `http://127.0.0.1:${devBoxPort}`;

      const { token } = await bridge.context.agentTokens.create('devbox-claude', 3_600_000);
      // the client calls itself something else: on the remote listener the token says who it is
      const agent = await connectAgent(devBox, { clientName: 'claude-code', token });
      const snapshot = await callTool(agent, 'page_snapshot');
      const ref = /(e\d+) button "Add to cart"/.exec(
        (snapshot.structuredContent as { outline?: string }).outline ?? '',
      )?.[1];
      expect(ref, JSON.stringify(snapshot.content)).toBeDefined();
      const click = await callTool(agent, 'page_exec', { cmd: 'Input.click', args: { target: ref } });
      expect(click.isError, JSON.stringify(click.content)).toBeFalsy();
      await waitFor(async () => (await tab.textContent('#count')) === '1 items', 5000, 'the click through the tunnel');

      const asked = callTool(agent, 'user_confirm', { prompt: 'Ship it?', timeoutMs: 30_000 });
      await waitFor(() => bridge.context.asks.views().length === 1, 5000, 'the ask at the desk');
      const ask = bridge.context.asks.views()[0];
      expect(ask?.agentId).toBe('devbox-claude');
      await http(`${bridge.url}/bridge/answer`, {
        token: bridge.token,
        body: { askId: ask?.askId, action: 'answer', value: true },
      });
      expect(outcome(await asked)).toMatchObject({ status: 'answered', value: true });

      // the stdio shim on the dev box takes the URL and the token from its environment
      const shim = await connectAgent(devBox, { transport: 'stdio', env: { AITI_AGENT_TOKEN: token } });
      const hello = await callTool(shim, 'aiti_hello', {});
      expect(hello.structuredContent).toMatchObject({ agentId: 'devbox-claude' });

      // no token, the human's, or the local agent token: 401, and nothing of the bridge in the answer
      for (const given of [undefined, bridge.token, bridge.context.agentToken]) {
        const refused = await initialize(`${devBox}/mcp/mcp`, given);
        expect(refused.status).toBe(401);
        expect(refused.authenticate).toBe('Bearer realm="aiti-bridge"');
        expect(refused.body).not.toMatch(/serverInfo|tools|aiti-bridge"|resource_metadata/);
      }
      // revoked (from the CLI's file, as `aiti-bridge agent-token revoke` does): refused at once, its stream cut
      await bridge.context.agentTokens.revoke('devbox-claude');
      const revoked = await initialize(`${devBox}/mcp/mcp`, token);
      expect(revoked.status).toBe(401);
      expect(revoked.body).toContain('revoked');
      expect(revoked.body).not.toContain('serverInfo');
      await expect(callTool(agent, 'bridge_status')).rejects.toThrow(/revoked/);
      // its streams were cut with it: the desk shows the agent offline
      await waitFor(
        () => {
          const known = bridge.context.agents.get('devbox-claude');
          return Boolean(known && !bridge.context.agents.isOnline(known));
        },
        5000,
        'devbox-claude offline',
      );
    },
  );

  it.skipIf(unavailable)(
    `over ssh -L the window on the laptop answers an ask of the bridge on the dev box${unavailable ? ` (skipped: ${unavailable})` : ''}`,
    { timeout: 90_000 },
    async () => {
      const bridge = await startBridge();
      const sshd = await startSshd();
      // the laptop's end takes the bridge's own port (on [::1], the bridge holds 127.0.0.1 here): the window's
      // token proof names the port, so `ssh -L 8777:127.0.0.1:8777` keeps it the same
      await sshd.tunnel(['-L', `[::1]:${bridge.port}:127.0.0.1:${bridge.port}`], '::1', bridge.port);
      const agent = await connectAgent(bridge.url, { clientName: 'claude' });
      const asked = callTool(agent, 'user_confirm', { prompt: 'Merge the branch?', timeoutMs: 30_000 });

      const { newPage } = await launchBrowser();
      const window = await newPage();
      await window.goto(`http://[::1]:${bridge.port}/aiti/ui/#token=${encodeURIComponent(bridge.token)}`);
      await window.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
      await window.getByRole('article', { name: 'Confirm from claude' }).getByRole('button', { name: /Yes/ }).click();
      expect(outcome(await asked)).toMatchObject({ status: 'answered', value: true });
    },
  );
});

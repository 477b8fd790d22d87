import { beforeAll, describe, expect, it } from 'vitest';
import { createApi } from '../../renderer/src/api.js';
import { proveBridge } from '../../renderer/src/token-proof.js';
import { startBridge } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { squat } from '../helpers/squatter.js';
import { ensureWindowBuilt } from '../window/build-window.js';

/**
 * Issue 24, High 1: open the window, stop the bridge, bind a plain HTTP server on the same port (any local user
 * can): within a second it received `GET /aiti/bridge/sessions` with `Authorization: Bearer <token>`, and the
 * stream's retry carried `?token=`. The token outlives restarts, so the squatter could later answer asks on the
 * real bridge. Now the window asks for a proof of the token first, checks it with WebCrypto, and stops.
 */

beforeAll(async () => {
  await ensureWindowBuilt();
}, 150_000);

describe('the window and a port squatter', () => {
  it('a squatter that takes the port after the bridge stopped gets no token, and the window says what happened', async () => {
    const bridge = await startBridge();
    bridge.context.asks.create({ kind: 'user_confirm', agentId: 'claude', prompt: 'Deploy to staging?' });
    const browser = await launchBrowser();
    const page = await browser.newPage();
    await page.goto(bridge.uiUrl);
    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
    await page.getByText('Deploy to staging?').first().waitFor();

    await bridge.close();
    await page.getByRole('status').filter({ hasText: 'Reconnecting' }).waitFor();
    const squatter = await squat({ port: bridge.port });
    await squatter.waitForRequest('/bridge/');
    expect(squatter.seen()).not.toContain(bridge.token);

    const notice = page.getByRole('alert').filter({ hasText: "This link's token is not the one of the bridge on" });
    await notice.waitFor({ timeout: 15_000 });
    expect(await notice.textContent()).toContain(`127.0.0.1:${bridge.port}`);
    expect(await notice.textContent()).toContain('the window sent it nothing and stopped');
    expect(squatter.seen()).not.toContain(bridge.token);
    expect(squatter.requests().map((r) => r.url.split('?')[0])).toEqual(['/aiti/bridge/token-proof']);
    // the cards of a bridge that is gone cannot be answered from here any more
    expect(await page.getByText('Deploy to staging?').count()).toBe(0);
  });

  it('a real bridge that comes back on the port proves itself and the window goes on', async () => {
    const bridge = await startBridge();
    const browser = await launchBrowser();
    const page = await browser.newPage();
    await page.goto(bridge.uiUrl);
    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
    const dataDir = bridge.context.config.dataDir;
    await bridge.close();
    await page.getByRole('status').filter({ hasText: 'Reconnecting' }).waitFor();
    const again = await startBridge({ port: bridge.port, dataDir });
    again.context.asks.create({ kind: 'user_confirm', agentId: 'claude', prompt: 'Back again?' });
    await page.getByText('Back again?').first().waitFor({ timeout: 15_000 });
    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
  });
});

describe("the window's REST calls (the same code, run by Node's fetch and WebCrypto)", () => {
  it('send nothing to a squatter: each call asks for the proof first and fails saying why', async () => {
    const bridge = await startBridge();
    const api = createApi(`${bridge.url}/aiti/`, bridge.token);
    await api.presence(true);
    expect(bridge.context.asks.away).toBe(true);
    await bridge.close();
    const squatter = await squat({ port: bridge.port });
    await expect(api.presence(false)).rejects.toThrow(
      'bridge/presence was not sent: what answers on the port is not the bridge',
    );
    await expect(api.answer({ askId: 'a1', action: 'answer', value: true })).rejects.toThrow('was not sent');
    expect(squatter.requests().map((r) => r.url.split('?')[0])).toEqual([
      '/aiti/bridge/token-proof',
      '/aiti/bridge/token-proof',
    ]);
    expect(squatter.seen()).not.toContain(bridge.token);
  });

  it('a bridge holding another token is not proven; nothing on the port is unreachable, not an impostor', async () => {
    const bridge = await startBridge();
    expect(await proveBridge(`${bridge.url}/aiti/`, bridge.token)).toEqual({ kind: 'proven' });
    expect(await proveBridge(`${bridge.url}/aiti/`, 'an-older-token-0000')).toMatchObject({ kind: 'impostor' });
    await bridge.close();
    expect(await proveBridge(`${bridge.url}/aiti/`, bridge.token)).toMatchObject({ kind: 'unreachable' });
  });
});

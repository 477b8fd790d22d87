import { createServer } from 'node:net';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Bridge } from '../../bridge/bridge.js';
import { http, startBridge } from '../helpers/bridge.js';
import { pairingCode } from '../helpers/device.js';
import { launchPhone } from '../helpers/phone.js';
import { squat } from '../helpers/squatter.js';
import { ensureWindowBuilt } from '../window/build-window.js';

/**
 * Issue 38, High 2: a browser paired through `http://127.0.0.1:<remote port>` (the README's advice for a shared
 * laptop) held its device token as a cookie of host 127.0.0.1, which browsers send to every port: another local
 * user who took the port while the bridge restarted received it from the window's reconnect, and so did any server
 * on 127.0.0.1 the human followed a link to; replayed on the real listener it answered 200. Now a device holds no
 * token: a key its browser keeps non-extractable in the window's origin, used only after the bridge proved itself.
 */

const notRoot = process.getuid?.() !== 0 ? 'needs root to run the squatter as another user' : undefined;
const NOBODY = 65534;
const CREDENTIAL = /aiti_(device|agent)_[0-9a-f]{16}_[\w-]{43}/;

beforeAll(async () => {
  await ensureWindowBuilt();
}, 150_000);

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

/** The phone's browser pairs through the remote listener's window, approved at the desk over HTTP. */
async function pairedPhone(bridge: Bridge): Promise<Page> {
  const remote = bridge.remote?.url ?? '';
  const phone = await launchPhone();
  const tab = await phone.newPage();
  await tab.goto(`${remote}/aiti/ui/pair#code=${await pairingCode(bridge)}`);
  await tab.getByLabel('Name this device').fill('laptop browser');
  await tab.getByRole('button', { name: 'Pair' }).click();
  await tab.getByLabel('check phrase').waitFor();
  const waiting = await http(`${bridge.url}/bridge/devices`, { token: bridge.token });
  const requestId = (waiting.body as { pairings: Array<{ requestId: string }> }).pairings[0]?.requestId;
  await http(`${bridge.url}/bridge/pairing/approve`, { token: bridge.token, body: { requestId } });
  await tab.waitForURL(`${remote}/aiti/ui/`);
  await tab.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
  return tab;
}

describe("a device's credential works only where it was given", () => {
  it.skipIf(notRoot)(
    `a link to another local user's server on 127.0.0.1 carries nothing of the device${notRoot ? ` (skipped: ${notRoot})` : ''}`,
    { timeout: 90_000 },
    async () => {
      const bridge = await startBridge({ remote: { host: '127.0.0.1', port: 0 } });
      const tab = await pairedPhone(bridge);
      const port = await freePort();
      const theirs = await squat({ port, uid: NOBODY });
      // an agent's prompt carries the link; the human clicks it
      await tab.evaluate((href) => {
        const link = Object.assign(document.createElement('a'), { href, textContent: 'the preview' });
        document.body.append(link);
      }, `http://127.0.0.1:${port}/preview`);
      await tab.getByRole('link', { name: 'the preview' }).click();
      await theirs.waitForRequest('/preview');
      const got = theirs.requests().find((r) => r.url === '/preview');
      expect(got?.headers.cookie).toBeUndefined();
      expect(got?.headers.authorization).toBeUndefined();
      expect(theirs.seen()).not.toMatch(CREDENTIAL);
    },
  );

  it.skipIf(notRoot)(
    `another local user who takes the port while the bridge is down gets nothing that signs in${notRoot ? ` (skipped: ${notRoot})` : ''}`,
    { timeout: 120_000 },
    async () => {
      const bridge = await startBridge({ remote: { host: '127.0.0.1', port: 0 } });
      const remotePort = bridge.remote?.port ?? 0;
      const tab = await pairedPhone(bridge);
      const dataDir = bridge.context.config.dataDir;
      await bridge.close();
      const squatter = await squat({ port: remotePort, uid: NOBODY });
      // the window reconnects, asks the squatter to prove itself, gets a wrong proof, and stops
      await tab.getByText('not the bridge this device was paired with').first().waitFor({ timeout: 30_000 });
      const asked = squatter.requests();
      expect(asked.length).toBeGreaterThan(0);
      expect(asked.map((r) => `${r.method} ${r.url.split('?')[0]}`)).toEqual(
        asked.map(() => 'GET /aiti/bridge/device/challenge'),
      );
      expect(asked.every((r) => r.headers.authorization === undefined && r.headers.cookie === undefined)).toBe(true);
      expect(squatter.seen()).not.toMatch(CREDENTIAL);

      // the real bridge back on its port: what the squatter holds opens nothing there
      await squatter.stop();
      const again = await startBridge({ dataDir, remote: { host: '127.0.0.1', port: remotePort } });
      const remote = again.remote?.url ?? '';
      for (const request of asked) {
        const headers = Object.fromEntries(
          Object.entries(request.headers).filter((e): e is [string, string] => typeof e[1] === 'string'),
        );
        delete headers.host;
        const sessions = await http(`${remote}/bridge/sessions`, { headers });
        expect(sessions.status).toBe(401);
      }
      // nor can it sign in with what it saw: a signature only the phone's browser can make
      const id = new URL(`http://x${asked[0]?.url ?? ''}`).searchParams.get('id') ?? '';
      const challenge = (await http(`${remote}/bridge/device/challenge?id=${id}&nonce=${'n'.repeat(22)}`)).body as {
        challenge: string;
      };
      const forged = await http(`${remote}/bridge/device/session`, {
        body: { id, challenge: challenge.challenge, signature: 'A'.repeat(86) },
      });
      expect(forged.status).toBe(403);
    },
  );
});

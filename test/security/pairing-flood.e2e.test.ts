import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { http, onCleanup, startBridge } from '../helpers/bridge.js';
import { pairingCode } from '../helpers/device.js';
import { createLanPeer, lanPeerUnavailable } from '../helpers/netns.js';
import { launchPhone } from '../helpers/phone.js';
import { waitFor } from '../helpers/wait.js';
import { ensureWindowBuilt } from '../window/build-window.js';
import { launchBrowserWithEvilSite, serveEvil } from './evil-site.js';

/**
 * Issue 38, Medium 4: the pairing budget was shared by everyone and counted every attempt, right or wrong: a LAN peer
 * with no credential polling every 100 ms made the real phone, with the right code, get 429 again and again; a web
 * page did the same with `fetch(…, {mode: 'no-cors'})` text/plain posts, since /pair/start took JSON whatever its
 * content type and checked no Origin. Now only wrong codes count, and the routes take only their own window's JSON.
 */

const unavailable = lanPeerUnavailable();

beforeAll(async () => {
  await ensureWindowBuilt();
}, 150_000);

/** Posts a wrong code every 100 ms until the stop file appears (or 600 posts); prints how each was answered. */
const FLOOD = `
import { request } from 'node:http';
import { existsSync } from 'node:fs';
const [base, stop] = process.argv.slice(1);
const key = { kty: 'EC', crv: 'P-256', x: 'A'.repeat(43), y: 'A'.repeat(43) };
const statuses = {};
for (let i = 0; i < 600 && !existsSync(stop); i++) {
  const body = JSON.stringify({ code: 'W' + String(i).padStart(23, '0'), name: 'lan', publicKey: key });
  const status = await new Promise((resolve) => {
    const req = request(new URL('/aiti/bridge/pair/start', base), { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode)); });
    req.on('error', (e) => resolve(e.code));
    req.end(body);
  });
  statuses[status] = (statuses[status] ?? 0) + 1;
  await new Promise((r) => setTimeout(r, 100));
}
console.log(JSON.stringify(statuses));
`;

describe('pairing under a flood', () => {
  it.skipIf(unavailable)(
    `the real phone pairs while a LAN peer and a web page flood the pairing routes${unavailable ? ` (skipped: ${unavailable})` : ''}`,
    { timeout: 120_000 },
    async () => {
      const lan = createLanPeer();
      const bridge = await startBridge({ remote: { host: '0.0.0.0', port: 0 } });
      const port = bridge.remote?.port ?? 0;
      const dir = mkdtempSync(join(tmpdir(), 'aiti-flood-'));
      onCleanup(() => rmSync(dir, { recursive: true, force: true }));
      const stop = join(dir, 'stop');
      onCleanup(() => writeFileSync(stop, ''));
      const lanFlood = lan.node(FLOOD, [`http://${lan.hostAddress}:${port}`, stop]);

      // a web page the human has open posts wrong codes as fast as the browser lets it, as text/plain (no preflight)
      const evil = await serveEvil({
        '/': `<script>
          const target = 'http://127.0.0.1:${port}/aiti/bridge/pair/start';
          window.sent = 0;
          (async () => { for (;;) {
            const body = JSON.stringify({ code: 'E'.repeat(24), name: 'web', publicKey: { kty: 'EC', crv: 'P-256', x: 'A'.repeat(43), y: 'A'.repeat(43) } });
            await fetch(target, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body }).catch(() => {});
            window.sent++;
          } })();
        </script>`,
      });
      const attacker = await launchBrowserWithEvilSite();
      const webPage = await attacker.newPage();
      await webPage.goto(evil.evilUrl);
      await waitFor(
        async () => (await webPage.evaluate(() => (window as unknown as { sent: number }).sent)) > 50,
        20_000,
        `the web page's posts (sent: ${await webPage.evaluate(() => JSON.stringify((window as unknown as { sent: number }).sent))}, ${webPage.url()})`,
      );

      const phone = await launchPhone();
      const tab = await phone.newPage();
      await tab.goto(`http://127.0.0.1:${port}/aiti/ui/pair#code=${await pairingCode(bridge)}`);
      await tab.getByLabel('Name this device').fill("Ana's phone");
      await tab.getByRole('button', { name: 'Pair' }).click();
      await tab.getByLabel('check phrase').waitFor();
      const waiting = await http(`${bridge.url}/bridge/devices`, { token: bridge.token });
      const requestId = (waiting.body as { pairings: Array<{ requestId: string; name: string }> }).pairings.find(
        (p) => p.name === "Ana's phone",
      )?.requestId;
      await http(`${bridge.url}/bridge/pairing/approve`, { token: bridge.token, body: { requestId } });
      await tab.getByRole('status').filter({ hasText: 'Connected' }).waitFor({ timeout: 30_000 });

      writeFileSync(stop, '');
      const lanAnswers = JSON.parse(await lanFlood) as Record<string, number>;
      // the LAN peer's wrong codes were refused, past the budget with 429
      expect(Object.keys(lanAnswers).sort()).toEqual(['403', '429']);
      expect(lanAnswers['429']).toBeGreaterThan(lanAnswers['403'] ?? 0);
      // nothing the web page sent reached the pairing step: it is not JSON from the bridge's own window
      const pending = (await http(`${bridge.url}/bridge/devices`, { token: bridge.token })).body as {
        pairings: unknown[];
        devices: Array<{ name: string }>;
      };
      expect(pending.devices.map((d) => d.name)).toEqual(["Ana's phone"]);
      const fromPage = await http(`http://127.0.0.1:${port}/aiti/bridge/pair/start`, {
        headers: { 'content-type': 'text/plain', origin: evil.evilUrl },
        body: JSON.stringify({ code: 'E'.repeat(24), name: 'web' }),
      });
      expect(fromPage.status).toBe(403);
      const plain = await http(`http://127.0.0.1:${port}/aiti/bridge/pair/start`, {
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({ code: 'E'.repeat(24), name: 'web' }),
      });
      expect(plain).toMatchObject({ status: 415 });
    },
  );
});

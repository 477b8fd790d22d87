import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { AskOutcome } from '../../bridge/protocol/index.js';
import { startBridge } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { connectAgent } from '../helpers/mcp.js';
import { launchPhone, readQrCode } from '../helpers/phone.js';
import { selfSignedCert } from '../helpers/tls.js';
import { ensureWindowBuilt } from '../window/build-window.js';

beforeAll(async () => {
  await ensureWindowBuilt();
}, 150_000);

const outcome = (result: unknown) => AskOutcome.parse((result as { structuredContent?: unknown }).structuredContent);

async function openDesk(uiUrl: string): Promise<Page> {
  const browser = await launchBrowser();
  const page = await browser.newPage();
  await page.goto(uiUrl);
  await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
  return page;
}

describe('a phone answers from away', () => {
  // two browsers, each launched cold: more than the default 30 s on a loaded 2-core machine
  it(
    'pairs through the QR code, is approved at the desk, notifies of an ask in the background and answers it by touch; revoked, its stream closes and it cannot sign in again',
    { timeout: 90_000 },
    async () => {
      const tls = selfSignedCert();
      const bridge = await startBridge({
        remote: { host: '127.0.0.1', port: 0 },
        tlsCert: tls.cert,
        tlsKey: tls.key,
      });
      const remote = bridge.remote?.url ?? '';
      expect(remote).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);

      // the desk shows the pairing QR code; the phone's camera reads it
      const desk = await openDesk(bridge.uiUrl);
      await desk.getByRole('button', { name: 'Pair a device' }).click();
      const link = await readQrCode(desk.getByRole('img', { name: 'pairing QR code' }));
      expect(link).toMatch(new RegExp(`^${remote.replace(/\./g, '\\.')}/aiti/ui/pair#code=[A-Za-z0-9_-]{24}$`));

      const phone = await launchPhone();
      await phone.grantPermissions(['notifications'], { origin: remote });
      // what the phone would ring, buzz and show, recorded as the page calls the browser for it; the window is in
      // the background (the human is elsewhere) once `__background` is set
      await phone.addInitScript(() => {
        const said: string[] = [];
        Object.assign(window, { __alerts: said });
        const Real = window.Notification;
        class Recorded extends Real {
          constructor(title: string, options?: NotificationOptions) {
            super(title, options);
            said.push(`notify: ${title}: ${options?.body ?? ''}`);
          }
        }
        Object.defineProperty(window, 'Notification', { value: Recorded });
        Object.defineProperty(document, 'hidden', {
          get: () => (window as unknown as { __background?: boolean }).__background === true,
        });
      });
      const tab = await phone.newPage();
      await tab.goto(link);
      await tab.getByLabel('Name this device').fill("Ana's phone");
      // the code left the address bar as soon as the page read it
      expect(tab.url()).toBe(`${remote}/aiti/ui/pair`);
      await tab.getByRole('button', { name: 'Pair' }).tap();
      const phrase = (await tab.getByLabel('check phrase').textContent()) ?? '';
      expect(phrase).toMatch(/^[a-z]+ [a-z]+ [a-z]+ \d\d$/);

      // the desk's card shows the same words; the human approves
      const card = desk.getByRole('article', { name: "pair Ana's phone" });
      await expect.poll(() => card.getByLabel('check phrase').textContent()).toBe(phrase);
      await card.getByRole('button', { name: 'Approve' }).click();

      // the phone holds no token at all: a key pair its browser keeps non-extractable in this origin's IndexedDB,
      // no cookie, nothing in its storage a script could read and send elsewhere
      await tab.waitForURL(`${remote}/aiti/ui/`);
      await tab.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
      expect(await phone.cookies(remote)).toEqual([]);
      const kept = await tab.evaluate(async () => {
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const request = indexedDB.open('aiti-device');
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
        const keys = await new Promise<{ signKey: CryptoKey; proofKey: CryptoKey }>((resolve, reject) => {
          const request = db.transaction('keys').objectStore('keys').get('device');
          request.onsuccess = () => resolve(request.result as { signKey: CryptoKey; proofKey: CryptoKey });
          request.onerror = () => reject(request.error);
        });
        const exported = await crypto.subtle.exportKey('pkcs8', keys.signKey).then(
          () => 'exported',
          (error: Error) => error.name,
        );
        return {
          extractable: [keys.signKey.extractable, keys.proofKey.extractable],
          exported,
          storage: Object.keys(localStorage).join(',') + Object.keys(sessionStorage).join(','),
        };
      });
      expect(kept).toEqual({ extractable: [false, false], exported: 'InvalidAccessError', storage: '' });
      const stored = readFileSync(join(bridge.context.appDir, 'devices.json'), 'utf8');
      expect(stored).toContain("Ana's phone");
      expect(stored).toContain('"publicKey"');
      expect(statSync(join(bridge.context.appDir, 'devices.json')).mode & 0o777).toBe(0o600);

      // the human turns on sound and notifications in the phone's settings (a touch, as browsers require), then
      // puts the phone away: a new ask notifies; back on the window, they answer it by touch
      await tab.getByRole('button', { name: 'Settings' }).tap();
      await tab.getByRole('checkbox', { name: 'Sound on a new ask' }).tap();
      await tab.getByRole('checkbox', { name: 'Browser notification on a new ask' }).tap();
      await tab.getByRole('button', { name: /Close/ }).first().tap();
      await tab.evaluate(() => Object.assign(window, { __background: true }));
      const claude = await connectAgent(bridge.url, { clientName: 'claude' });
      const asked = claude.callTool({
        name: 'user_confirm',
        arguments: { prompt: 'Deploy to staging?', timeoutMs: 60_000 },
      });
      const phoneCard = tab.getByRole('article', { name: 'Confirm from claude' });
      await phoneCard.getByRole('button', { name: /Yes/ }).waitFor();
      await expect
        .poll(() => tab.evaluate(() => (window as unknown as { __alerts: string[] }).__alerts))
        .toEqual(['notify: claude asks: Deploy to staging?']);
      await tab.evaluate(() => Object.assign(window, { __background: false }));
      // a finger's target: every button of the card at least 44 px high, within the phone's width
      for (const button of await phoneCard.getByRole('button').all()) {
        const box = await button.boundingBox();
        expect(box?.height ?? 0, (await button.textContent()) ?? '').toBeGreaterThanOrEqual(44);
        expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
      }
      await phoneCard.getByRole('button', { name: /Yes/ }).tap();
      expect(outcome(await asked)).toMatchObject({ status: 'answered', value: true });

      // the desk lists the phone; revoking it closes the phone's stream at once
      const second = claude.callTool({
        name: 'user_confirm',
        arguments: { prompt: 'And production?', timeoutMs: 60_000 },
      });
      second.catch(() => undefined); // still open when the test ends
      await tab.getByRole('article', { name: 'Confirm from claude' }).filter({ hasText: 'And production?' }).waitFor();
      const askId = bridge.context.asks.views()[0]?.askId ?? '';
      const devices = desk.getByRole('region', { name: 'devices' });
      await devices.getByText("Ana's phone").waitFor();
      await devices.getByRole('button', { name: "revoke Ana's phone" }).click();
      await tab.getByRole('alert').filter({ hasText: 'no longer paired' }).waitFor();
      await devices.getByText("Ana's phone").waitFor({ state: 'detached' });

      // reloaded, the phone cannot sign in again: its key is refused, and the ask stays open
      await tab.reload();
      await tab.getByRole('alert').filter({ hasText: 'no longer paired' }).waitFor();
      expect(bridge.context.asks.views().map((a) => a.askId)).toEqual([askId]);
      expect(existsSync(join(bridge.context.appDir, 'devices.json'))).toBe(true);
      expect(readFileSync(join(bridge.context.appDir, 'devices.json'), 'utf8')).not.toContain("Ana's phone");
    },
  );
});

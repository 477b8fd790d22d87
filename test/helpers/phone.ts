import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Locator } from 'playwright-core';
import { createRequire } from 'node:module';
import type decode from 'jsqr';
import { onCleanup } from './bridge.js';
import { CHROMIUM_ARGS, chromiumPath } from './chromium.js';

// jsqr is CommonJS whose module.exports carries the decoder as `default`
const jsQR = (createRequire(import.meta.url)('jsqr') as { default: typeof decode.default }).default;

/**
 * A phone, as far as a web page can tell: headless Chromium at 390×844 with touch, a mobile viewport and an
 * Android Chrome user agent, its own profile (its own cookies), closed after the test. `ignoreHTTPSErrors` takes
 * the test's self-signed certificate the way a phone takes mkcert's CA once installed.
 */
export async function launchPhone(): Promise<BrowserContext> {
  const profile = mkdtempSync(join(tmpdir(), 'aiti-phone-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    ignoreHTTPSErrors: true,
    userAgent:
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
  });
  onCleanup(async () => {
    await context.close().catch(() => undefined);
    rmSync(profile, { recursive: true, force: true });
  });
  return context;
}

/**
 * Reads the QR code an <img> shows, as a camera would: the page draws the image it decoded into a canvas (on
 * white, at its natural size: 8 px a module), and jsQR finds and decodes the code in those pixels.
 */
export async function readQrCode(image: Locator): Promise<string> {
  const pixels = await image.evaluate(async (img: HTMLImageElement) => {
    await img.decode();
    const scale = 1;
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth * scale || img.width * scale;
    canvas.height = img.naturalHeight * scale || img.height * scale;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2d canvas');
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    const data = ctx.getImageData(0, 0, canvas.width, canvas.height);
    return { width: data.width, height: data.height, data: Array.from(data.data) };
  });
  const code = jsQR(Uint8ClampedArray.from(pixels.data), pixels.width, pixels.height);
  if (!code) throw new Error(`no QR code found in the ${pixels.width}×${pixels.height} image`);
  return code.data;
}

#!/usr/bin/env node
// Renders build/icon.svg (the one source image) into the PNGs the app and its installers use:
// build/icon.png (512, electron-builder derives every platform's icon from it) and the tray icons in
// build/tray/ (16 px and @2x; the "-ask" variant carries a dot for open asks). Uses the local Chromium, no network.
// Usage: node scripts/make-icons.js [outDir]   (default: build/)
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = process.argv[2] ?? join(root, 'build');
const svg = readFileSync(join(root, 'build', 'icon.svg'), 'utf8');

const images = [
  { file: 'icon.png', size: 512, dot: false },
  { file: 'tray/tray.png', size: 16, dot: false },
  { file: 'tray/tray@2x.png', size: 32, dot: false },
  { file: 'tray/tray-ask.png', size: 16, dot: true },
  { file: 'tray/tray-ask@2x.png', size: 32, dot: true },
];

const page = (size, dot) => `<!doctype html><html><body style="margin:0;background:transparent">
<div style="position:relative;width:${size}px;height:${size}px">
  <img style="width:100%;height:100%;display:block" src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}">
  ${dot ? `<div style="position:absolute;right:0;top:0;width:45%;height:45%;border-radius:50%;background:#e03131;box-shadow:0 0 0 ${Math.max(1, size / 16)}px #fff"></div>` : ''}
</div></body></html>`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
  ],
});
try {
  const context = await browser.newContext({ deviceScaleFactor: 1 });
  const tab = await context.newPage();
  mkdirSync(join(out, 'tray'), { recursive: true });
  for (const { file, size, dot } of images) {
    await tab.setViewportSize({ width: size, height: size });
    await tab.setContent(page(size, dot));
    await tab.locator('img').evaluate((img) => img.decode());
    await tab.screenshot({
      path: join(out, file),
      omitBackground: true,
      clip: { x: 0, y: 0, width: size, height: size },
    });
    console.error(`make-icons: ${file} (${size}×${size})`);
  }
} finally {
  await browser.close();
}

#!/usr/bin/env node
// Renders build/icon.svg (the one source image) into the images the app and its installers use, with the local
// Chromium (no network):
// - build/icon.png, 512 px: electron-builder derives the macOS and Linux icons from it;
// - build/icon.ico, 16–256 px: the Windows app, installer and taskbar icon;
// - build/tray/tray.png and tray@2x.png (16 and 32 px) for macOS and Linux, and build/tray/tray.ico (16–64 px,
//   sharp at 100–400 % scaling) for Windows; each also as tray-ask.*, carrying a dot for open asks.
// Usage: node scripts/make-icons.js [outDir]   (default: build/). Needs playwright-core (a dev dependency) and a
// Chromium: /usr/bin/chromium (Debian's "chromium"), or the one CHROMIUM_PATH names.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { icoFromPngs } from './ico.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = process.argv[2] ?? join(root, 'build');
const svg = readFileSync(join(root, 'build', 'icon.svg'), 'utf8');
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
if (!existsSync(chromiumPath)) {
  console.error(
    `make-icons: no Chromium at ${chromiumPath}; install Debian's "chromium" package or set CHROMIUM_PATH to a Chrome or Chromium binary`,
  );
  process.exit(2);
}
let chromium;
try {
  ({ chromium } = await import('playwright-core'));
} catch {
  console.error('make-icons: playwright-core is missing; run "npm ci" first');
  process.exit(2);
}

const pngs = [
  { file: 'icon.png', size: 512, dot: false },
  { file: 'tray/tray.png', size: 16, dot: false },
  { file: 'tray/tray@2x.png', size: 32, dot: false },
  { file: 'tray/tray-ask.png', size: 16, dot: true },
  { file: 'tray/tray-ask@2x.png', size: 32, dot: true },
];
const icos = [
  { file: 'icon.ico', sizes: [16, 24, 32, 48, 64, 128, 256], dot: false },
  { file: 'tray/tray.ico', sizes: [16, 20, 24, 32, 40, 48, 64], dot: false },
  { file: 'tray/tray-ask.ico', sizes: [16, 20, 24, 32, 40, 48, 64], dot: true },
];

const page = (size, dot) => `<!doctype html><html><body style="margin:0;background:transparent">
<div style="position:relative;width:${size}px;height:${size}px">
  <img style="width:100%;height:100%;display:block" src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}">
  ${dot ? `<div style="position:absolute;right:0;top:0;width:45%;height:45%;border-radius:50%;background:#e03131;box-shadow:0 0 0 ${Math.max(1, size / 16)}px #fff"></div>` : ''}
</div></body></html>`;

const browser = await chromium.launch({
  executablePath: chromiumPath,
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
  const render = async (size, dot) => {
    await tab.setViewportSize({ width: size, height: size });
    await tab.setContent(page(size, dot));
    await tab.locator('img').evaluate((img) => img.decode());
    return tab.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
  };
  mkdirSync(join(out, 'tray'), { recursive: true });
  for (const { file, size, dot } of pngs) {
    writeFileSync(join(out, file), await render(size, dot));
    console.error(`make-icons: ${file} (${size}×${size})`);
  }
  for (const { file, sizes, dot } of icos) {
    const images = [];
    for (const size of sizes) images.push({ size, png: await render(size, dot) });
    writeFileSync(join(out, file), icoFromPngs(images));
    console.error(`make-icons: ${file} (${sizes.join(', ')} px)`);
  }
} finally {
  await browser.close();
}

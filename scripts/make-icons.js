#!/usr/bin/env node
// Renders build/icon.svg (the one source image) into the images the app and its installers use, with the local
// Chromium (no network):
// - build/icon.png, 512 px: electron-builder derives the macOS and Linux icons from it;
// - build/icon.ico, 16–256 px: the Windows app, installer and taskbar icon;
// - build/tray/tray.png and tray@2x.png (16 and 32 px) for macOS and Linux, and build/tray/tray.ico (16–64 px,
//   sharp at 100–400 % scaling) for Windows; each also as tray-ask.*, carrying a dot for open asks;
// - build/tray/trayTemplate.png and @2x, tray-askTemplate.*: the macOS menu bar's template images (black on
//   transparent: macOS tints them for a light or dark bar and a highlighted item, and a file name ending in
//   "Template" is how Electron knows).
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
  { file: 'tray/trayTemplate.png', size: 16, dot: false, template: true },
  { file: 'tray/trayTemplate@2x.png', size: 32, dot: false, template: true },
  { file: 'tray/tray-askTemplate.png', size: 16, dot: true, template: true },
  { file: 'tray/tray-askTemplate@2x.png', size: 32, dot: true, template: true },
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

// the template image: the icon's white bridge and the human's dot, in black, without the coloured tile
const glyph = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="48 64 416 416">
  <g fill="none" stroke="#000" stroke-linecap="round">
    <path d="M84 352 Q256 128 428 352" stroke-width="48"/><path d="M72 352 H440" stroke-width="44"/>
    <path d="M176 352 V276 M256 352 V240 M336 352 V276" stroke-width="32"/>
  </g><circle cx="256" cy="128" r="48" fill="#000"/></svg>`;

const page = (size, dot, template) => {
  const ring = Math.max(1, size / 16);
  const image = Buffer.from(template ? glyph : svg).toString('base64');
  // a template has one colour: its dot is cut free of the glyph by a transparent ring instead of a white one
  const cut =
    dot && template
      ? `-webkit-mask-image:radial-gradient(circle ${0.225 * size + ring}px at ${0.775 * size}px ${0.225 * size}px,transparent 99%,#000 100%)`
      : '';
  const dotStyle = template ? 'background:#000' : `background:#e03131;box-shadow:0 0 0 ${ring}px #fff`;
  return `<!doctype html><html><body style="margin:0;background:transparent">
<div style="position:relative;width:${size}px;height:${size}px">
  <img style="width:100%;height:100%;display:block;${cut}" src="data:image/svg+xml;base64,${image}">
  ${dot ? `<div style="position:absolute;right:0;top:0;width:45%;height:45%;border-radius:50%;${dotStyle}"></div>` : ''}
</div></body></html>`;
};

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
  const render = async (size, dot, template = false) => {
    await tab.setViewportSize({ width: size, height: size });
    await tab.setContent(page(size, dot, template));
    await tab.locator('img').evaluate((img) => img.decode());
    return tab.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
  };
  mkdirSync(join(out, 'tray'), { recursive: true });
  for (const { file, size, dot, template } of pngs) {
    writeFileSync(join(out, file), await render(size, dot, template));
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

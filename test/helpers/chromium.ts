/** Flags for headless Chromium on this kind of machine (no GPU, no sandbox, no network beyond loopback). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

/** Debian's Chromium, unless CHROMIUM_PATH names another. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH || '/usr/bin/chromium';
}

#!/usr/bin/env node
// The installed app on macOS and Windows, as a person gets it (the release workflow's smoke-desktop job; Linux has
// scripts/smoke-app.js): installs the dmg (copied to /Applications) or the nsis installer (silent, per user), starts
// the app with a fresh data dir, and checks what the system shows of it:
//   1. the bridge answers;  2. its window is on the screen;  3. its tray icon is there;
//   4. a notification: shown, or — an unsigned macOS build — the app says it failed and what stands in;
//   5. quit (macOS: SIGTERM, as logout sends it; Windows: the WM_QUERYENDSESSION of a logoff, sent to its window)
//      answers an open ask "cancelled" and ends the app and its bridge.
// What the system cannot show to a script comes from the app's own log (AITI_LOG=info): whether a notification
// was shown (Electron's `show`) or failed (`failed`). Needs: macOS (swift, for the window list) or Windows
// (PowerShell). Usage: node scripts/smoke-installed.js --installer <dmg or exe> | --app <executable>
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const arg = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const STEP_MS = 60_000;
const platform = process.platform;
if (platform !== 'darwin' && platform !== 'win32') {
  console.error(`smoke-installed: runs on macOS and Windows (this is ${platform}); Linux has scripts/smoke-app.js`);
  process.exit(2);
}
const run = (command, argv, options = {}) => spawnSync(command, argv, { encoding: 'utf8', ...options });
const ps = (script) => run('powershell', ['-NoProfile', '-NonInteractive', '-Command', script]).stdout.trim();
let output = '';
const pass = (what) => console.log(`smoke: ✔ ${what}`);
const work = mkdtempSync(join(tmpdir(), 'aiti-smoke-'));
let app;
const fail = (what) => {
  console.error(
    `smoke: ✘ ${what}\n--- the app's output (last 60 lines) ---\n${output.split('\n').slice(-60).join('\n')}`,
  );
  if (app?.exitCode === null) app.kill('SIGKILL');
  process.exit(1);
};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(check, what, ms = STEP_MS) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) fail(`${what} (not within ${ms / 1000} s)`);
    await sleep(500);
  }
}

/** Installs the installer as a person would; returns the app's executable. */
function install(installer) {
  if (platform === 'darwin') {
    const mount = join(work, 'dmg');
    if (run('hdiutil', ['attach', installer, '-nobrowse', '-mountpoint', mount]).status !== 0)
      fail(`hdiutil attach ${installer}`);
    run('cp', ['-R', join(mount, 'AITI Bridge.app'), '/Applications/']);
    run('hdiutil', ['detach', mount]);
    // what "Open Anyway" does for a download; a signed and notarized build passes Gatekeeper without it
    run('xattr', ['-dr', 'com.apple.quarantine', '/Applications/AITI Bridge.app']);
    return '/Applications/AITI Bridge.app/Contents/MacOS/AITI Bridge';
  }
  const done = run(installer, ['/S']);
  if (done.status !== 0) fail(`the installer ${installer} /S exited with ${done.status}`);
  return join(process.env.LOCALAPPDATA ?? '', 'Programs', 'AITI Bridge', 'AITI Bridge.exe');
}

/** macOS: the app's windows by layer, from the window server (0: a window, 25: a menu bar status item). */
function macWindowLayers() {
  const script = join(work, 'windows.swift');
  writeFileSync(
    script,
    `import CoreGraphics
let list = CGWindowListCopyWindowInfo([.optionOnScreenOnly], kCGNullWindowID) as? [[String: Any]] ?? []
for w in list where (w[kCGWindowOwnerName as String] as? String) == "AITI Bridge" { print(w[kCGWindowLayer as String] ?? -1) }
`,
  );
  return run('swift', [script]).stdout.split('\n').filter(Boolean).map(Number);
}

const installer = arg('--installer');
const executable = arg('--app') ?? (installer ? install(installer) : undefined);
if (!executable || !existsSync(executable)) fail(`no app to start (${executable ?? 'give --installer or --app'})`);

const port = await new Promise((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = probe.address();
    probe.close(() => resolve(free));
  });
});
const origin = `http://127.0.0.1:${port}`;
const dataDir = join(work, 'data');
app = spawn(executable, ['--port', String(port), '--data-dir', dataDir], {
  env: { ...process.env, AITI_LOG: 'info', AITI_SHORTCUT: '' },
  stdio: ['ignore', 'pipe', 'pipe'],
});
app.stdout.on('data', (chunk) => (output += chunk));
app.stderr.on('data', (chunk) => (output += chunk));
console.log(`smoke: started ${executable} on ${origin}`);

// 1. the bridge
const version = await until(async () => {
  try {
    const health = await (await fetch(`${origin}/bridge/health`)).json();
    return health.ok && health.version;
  } catch {
    return undefined;
  }
}, 'the bridge to answer');
pass(`the bridge answers on ${origin} (aiti-bridge ${version})`);

// 2. the window, 3. the tray
if (platform === 'darwin') {
  await until(() => macWindowLayers().includes(0), 'the window "AITI Bridge" on the screen');
  pass('the window is on the screen');
  await until(() => macWindowLayers().includes(25), 'the menu bar icon');
  pass('the menu bar icon is there');
} else {
  await until(
    () =>
      ps(
        `Get-Process | Where-Object { $_.MainWindowTitle -eq 'AITI Bridge' } | Select-Object -First 1 -ExpandProperty Id`,
      ),
    'the window "AITI Bridge" on the screen',
  );
  pass('the window is on the screen');
  // the notification area's buttons are named by their tooltip: "AITI Bridge — no open asks"
  await until(
    () =>
      ps(
        `Add-Type -AssemblyName UIAutomationClient,UIAutomationTypes; $c = New-Object System.Windows.Automation.PropertyCondition([System.Windows.Automation.AutomationElement]::ControlTypeProperty, [System.Windows.Automation.ControlType]::Button); [System.Windows.Automation.AutomationElement]::RootElement.FindAll([System.Windows.Automation.TreeScope]::Descendants, $c) | ForEach-Object { $_.Current.Name } | Where-Object { $_ -like 'AITI Bridge*' }`,
      ),
    'the tray icon in the notification area',
  );
  pass('the tray icon is in the notification area');
}

// 4. a notification (user_notify always notifies, window or not)
const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
const agent = new Client({ name: 'smoke', version: '1.0.0' });
await agent.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp/mcp`)));
await agent.callTool({ name: 'user_notify', arguments: { title: 'Smoke test', body: 'A notification' } });
const outcome = await until(
  () => (/notification shown: /.test(output) ? 'shown' : /Desktop notifications fail here[^\n]*/.exec(output)?.[0]),
  'the notification to be shown, or its failure noticed',
);
pass(outcome === 'shown' ? 'the notification was shown' : `the failed notification was noticed: ${outcome}`);

// 5. an open ask, then quit: it is answered "cancelled"
const call = agent
  .callTool(
    { name: 'user_confirm', arguments: { prompt: 'Smoke test: still there?', timeoutMs: 600_000 } },
    undefined,
    {
      timeout: 120_000,
    },
  )
  .then(
    (result) => result.structuredContent?.status,
    (error) => `an error: ${error.message}`,
  );
const token = readFileSync(join(dataDir, 'aiti-bridge', 'token'), 'utf8').trim();
await until(async () => {
  const res = await fetch(`${origin}/bridge/sse?role=ai`, { headers: { authorization: `Bearer ${token}` } });
  const reader = res.body.getReader();
  const first = new TextDecoder().decode((await reader.read()).value);
  await reader.cancel();
  return /"asks":\[\{/.test(first);
}, 'the ask to open');
if (platform === 'darwin') {
  app.kill('SIGTERM');
} else {
  // Windows logs the user off: WM_QUERYENDSESSION (0x11) with ENDSESSION_LOGOFF to the app's window
  ps(`Add-Type 'using System; using System.Runtime.InteropServices; public static class W { [DllImport("user32.dll")] public static extern IntPtr SendMessageTimeout(IntPtr h, uint m, IntPtr w, IntPtr l, uint f, uint t, out IntPtr r); }'
$h = (Get-Process -Id ${app.pid}).MainWindowHandle; $r = [IntPtr]::Zero
[W]::SendMessageTimeout($h, 0x11, [IntPtr]::Zero, [IntPtr]0x80000000, 2, 5000, [ref]$r) | Out-Null`);
}
const answered = await call;
if (answered !== 'cancelled') fail(`quitting should answer the open ask "cancelled", it answered ${answered}`);
pass(`${platform === 'darwin' ? 'quitting' : 'logging off'} answered the open ask ("cancelled")`);
await until(() => app.exitCode !== null || app.signalCode !== null, 'the app to exit', 30_000);
const closed = await fetch(`${origin}/bridge/health`).then(
  () => false,
  () => true,
);
if (!closed) fail(`the bridge still answers on ${origin} after quitting`);
pass(`the app ended (exit ${app.exitCode ?? app.signalCode}) with its bridge`);
await agent.close().catch(() => undefined);
rmSync(work, { recursive: true, force: true });
console.log('smoke: the installed app passed');

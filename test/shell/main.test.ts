import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { Channel, type HostInfo } from '../../electron/channels.js';
import { http, onCleanup, startBridge, tempDir } from '../helpers/bridge.js';
import { connectAgent } from '../helpers/mcp.js';
import { waitFor } from '../helpers/wait.js';
import { ensureElectronBuilt } from './built.js';
import { sessionBus, whyNoSessionBus } from './session-bus.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FAKE = fileURLToPath(new URL('./fake-electron/register.mjs', import.meta.url));

interface Report {
  window?: {
    options: { webPreferences: Record<string, unknown> };
    url?: string;
    visible: boolean;
    closed?: boolean;
    sent: Array<{ channel: string; args: unknown[] }>;
  };
  switches?: Record<string, string>;
  tray?: { image: string; tooltip: string; menu: string[] };
  shortcuts: Array<{ accelerator: string; registered: boolean }>;
  notifications: Array<{ title: string; body: string }>;
  dialogs: Array<{ kind: string; title?: string; content?: string; message?: string }>;
  ipc: Record<string, { answer?: HostInfo | string; error?: string; stranger?: string }>;
  permissions: Record<string, boolean>;
  quit: boolean;
  exitCode?: number;
  secondLaunches?: number;
  shutdownDelayed?: boolean;
  sessionEndHeld?: boolean;
  appMenu?: Array<[string, string[]]>;
  terminated?: boolean;
}

/** Runs the built main process (dist/electron/main.js) under Node with a fake electron module. */
function runApp(args: string[], env: Record<string, string> = {}) {
  const reportFile = join(tempDir(), 'report.json');
  const child = spawn(process.execPath, ['--import', FAKE, join(ROOT, 'dist', 'electron', 'main.js'), ...args], {
    env: { ...process.env, ...env, FAKE_ELECTRON_REPORT: reportFile, AITI_SHORTCUT: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  onCleanup(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const report = (): Report | undefined =>
    existsSync(reportFile) ? (JSON.parse(readFileSync(reportFile, 'utf8')) as Report) : undefined;
  const until = async (check: (r: Report) => boolean, what: string) => {
    await waitFor(() => Boolean(report() && check(report() as Report)), 15_000, `${what}; stderr:\n${stderr}`);
    return report() as Report;
  };
  /** a second launch by hand, with these arguments */
  const launchAgain = (argv: string[]) => {
    writeFileSync(`${reportFile}.argv`, JSON.stringify(argv));
    child.kill('SIGUSR2');
  };
  return { child, exited, report, until, launchAgain };
}

describe('the desktop main process, wired together', () => {
  beforeAll(() => ensureElectronBuilt());

  it('starts the bridge in-process and opens a secure window on it, with the tray and the shortcut', async () => {
    const dataDir = tempDir();
    const app = runApp(['--no-sandbox', '--port', '0', '--data-dir', dataDir]);
    const r = await app.until(
      (r) => Boolean(r.tray && r.ipc[Channel.HostInfo] && r.ipc[Channel.Token]),
      'the app is ready',
    );

    const ui = new URL(r.window?.url ?? '');
    expect(ui.pathname).toBe('/aiti/ui/');
    expect(ui.hash).toBe('');
    expect((await http(`${ui.origin}/bridge/health`)).body).toMatchObject({ ok: true });
    expect(r.window?.visible).toBe(true);
    expect(r.window?.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    });
    expect(String(r.window?.options.webPreferences.preload)).toMatch(/dist\/electron\/preload\.cjs$/);

    const token = readFileSync(join(dataDir, 'aiti-bridge', 'token'), 'utf8').trim();
    expect(r.ipc[Channel.Token]?.answer).toBe(token);
    expect(r.ipc[Channel.Token]?.stranger).toContain('IPC refused: the sender http://localhost:3000/');
    expect(r.ipc[Channel.HostInfo]?.answer).toMatchObject({ shortcut: 'CommandOrControl+Shift+Space' });

    expect(r.tray?.tooltip).toBe('AITI Bridge — no open asks');
    // the app's own menu, not Electron's default one (in development it keeps reload and the developer tools)
    expect(r.appMenu?.map(([label]) => label)).toEqual(['File', 'Edit', 'View']);
    expect(r.appMenu?.[0]?.[1]).toEqual(['Push to all…', 'separator', 'close', 'Quit']);
    expect(r.tray?.menu).toContain('Push to all…');
    expect(r.shortcuts).toEqual([{ accelerator: 'CommandOrControl+Shift+Space', registered: true }]);
    expect(r.permissions).toEqual({
      notifications: true,
      media: false,
      geolocation: false,
      'clipboard-sanitized-write': true,
    });
  });

  it('a second launch brings the hidden window forward; the login item starting again leaves it in the tray', async () => {
    const app = runApp(['--port', '0', '--data-dir', tempDir()]);
    await app.until((r) => Boolean(r.tray), 'the tray');
    app.child.kill('SIGHUP'); // the fake: hide the window, then a second launch with --hidden
    let r = await app.until((r) => r.secondLaunches === 1, 'the login launch');
    expect(r.window?.visible).toBe(false);
    app.child.kill('SIGUSR2'); // the fake: a second launch by hand
    r = await app.until((r) => r.secondLaunches === 2, 'the second launch');
    expect(r.window?.visible).toBe(true);
  });

  it('quitting from the tray closes the bridge and exits', async () => {
    const app = runApp(['--port', '0', '--data-dir', tempDir()]);
    const r = await app.until((r) => Boolean(r.tray), 'the tray');
    const origin = new URL(r.window?.url ?? '').origin;
    app.child.kill('SIGTERM'); // the fake clicks "Quit AITI Bridge"
    expect(await app.exited).toBe(0);
    expect(app.report()?.quit).toBe(true);
    await expect(fetch(`${origin}/bridge/health`)).rejects.toThrow();
  });

  for (const [how, signal] of [
    ['Windows logs off (the window gets query-session-end, as Electron 44+ sends it)', 'SIGWINCH'],
    ['Linux or macOS shuts down (powerMonitor shutdown)', 'SIGPWR'],
  ] as const) {
    it(`when ${how}, answers the open ask, closes the bridge and exits`, async () => {
      const app = runApp(['--port', '0', '--data-dir', tempDir()]);
      const r = await app.until((r) => Boolean(r.tray), 'the tray');
      const origin = new URL(r.window?.url ?? '').origin;
      const agent = await connectAgent(origin, { clientName: 'logoff-check' });
      const call = agent.callTool(
        { name: 'user_confirm', arguments: { prompt: 'Deploy to staging?', timeoutMs: 600_000 } },
        undefined,
        { timeout: 20_000 },
      );
      await app.until((r) => r.tray?.tooltip === 'AITI Bridge — 1 open ask', 'the open ask in the tray');
      app.child.kill(signal);
      const result = (await call) as { structuredContent?: { status?: string } };
      expect(result.structuredContent?.status).toBe('cancelled');
      expect(await app.exited).toBe(0);
      expect(app.report()?.quit).toBe(true);
      if (signal === 'SIGPWR') expect(app.report()?.shutdownDelayed).toBe(true);
      else expect([app.report()?.sessionEndHeld, app.report()?.terminated]).toEqual([true, undefined]);
      await expect(fetch(`${origin}/bridge/health`)).rejects.toThrow();
    });
  }

  it('on Wayland, turns on the shortcut portal before ready and tells the window how to bind --compose', async () => {
    const app = runApp(['--port', '0', '--data-dir', tempDir()], { XDG_SESSION_TYPE: 'wayland' });
    const r = await app.until((r) => Boolean(r.tray && r.ipc[Channel.HostInfo]), 'the app is ready');
    expect(r.switches).toEqual({ 'enable-features': 'GlobalShortcutsPortal,GlobalShortcutsPortalPreferredTrigger' });
    const info = r.ipc[Channel.HostInfo]?.answer as HostInfo;
    const main = join(ROOT, 'dist', 'electron', 'main.js');
    expect(info.notices).toContainEqual({
      level: 'info',
      text: `On Wayland the desktop may ask you once to allow the shortcut "CommandOrControl+Shift+Space"; if pressing it does nothing, bind a key in your desktop's keyboard settings to run: ${process.execPath} ${main} --compose`,
    });

    // that command, run while the app is in the tray: the window comes back on the composer
    app.launchAgain(['--compose']);
    // the app reports the launch as it takes it, and shows the composer a moment later: wait for that
    const again = await app.until(
      (r) => r.secondLaunches === 1 && Boolean(r.window?.sent.some((m) => m.channel === Channel.Compose)),
      'the --compose launch to open the composer',
    );
    expect(again.window?.visible).toBe(true);
    expect(again.window?.sent).toContainEqual({ channel: Channel.Compose, args: [{ to: 'all' }] });
  });

  it('on X11 and elsewhere, starts without extra Chromium features', async () => {
    const app = runApp(['--port', '0', '--data-dir', tempDir()], { XDG_SESSION_TYPE: 'x11' });
    const r = await app.until((r) => Boolean(r.tray && r.ipc[Channel.HostInfo]), 'the app is ready');
    expect(r.switches).toBeUndefined();
  });

  it('on GNOME without a tray, a login launch shows the window and closing it quits', async (ctx) => {
    const why = whyNoSessionBus();
    if (why) return ctx.skip(why);
    const bus = await sessionBus();
    const app = runApp(['--hidden', '--port', '0', '--data-dir', tempDir()], {
      DBUS_SESSION_BUS_ADDRESS: bus,
      XDG_CURRENT_DESKTOP: 'ubuntu:GNOME',
      XDG_SESSION_TYPE: 'x11',
    });
    const r = await app.until((r) => Boolean(r.tray && r.ipc[Channel.HostInfo] && r.window?.visible), 'the window');
    const info = r.ipc[Channel.HostInfo]?.answer as HostInfo;
    expect(info.notices.map((n) => n.text)).toContainEqual(
      expect.stringContaining('closing this window quits AITI Bridge'),
    );
    const origin = new URL(r.window?.url ?? '').origin;
    app.child.kill('SIGTTIN');
    expect(await app.exited).toBe(0);
    expect(app.report()?.quit).toBe(true);
    await expect(fetch(`${origin}/bridge/health`)).rejects.toThrow();
  });

  it('tells the human when another app holds the shortcut: a notification and the tray tooltip', async () => {
    const app = runApp(['--port', '0', '--data-dir', tempDir()], {
      FAKE_SHORTCUT_HELD: 'CommandOrControl+Shift+Space',
    });
    const r = await app.until((r) => r.notifications.length > 0, 'a notification');
    const problem = 'the shortcut "CommandOrControl+Shift+Space" (from the default) is held by another app';
    expect(r.notifications[0]?.body).toContain(problem);
    expect(r.tray?.tooltip).toContain(problem);
  });

  it('notices notifications that fail: the tray says so, the window is told and flashes for the ask', async () => {
    const app = runApp(['--hidden', '--port', '0', '--data-dir', tempDir()], {
      FAKE_NOTIFICATION_FAILS: 'Notifications are not allowed for this application',
    });
    const r = await app.until((r) => Boolean(r.tray), 'the tray');
    const agent = await connectAgent(new URL(r.window?.url ?? '').origin, { clientName: 'unsigned-mac' });
    void agent
      .callTool({ name: 'user_confirm', arguments: { prompt: 'Ship it?', timeoutMs: 600_000 } }, undefined, {
        timeout: 20_000,
      })
      .catch(() => undefined);
    const failed = await app.until(
      (r) =>
        Boolean(
          r.tray?.tooltip.includes('Desktop notifications fail here') &&
          r.window?.sent.some((m) => m.channel === Channel.HostChanged),
        ),
      'the tray and the window to hear that notifications fail',
    );
    expect(failed.notifications.map((n) => n.body)).toEqual(['Ship it?']);
    expect(failed.tray?.tooltip).toContain(
      'Desktop notifications fail here (Notifications are not allowed for this application): new asks show in the tray and the taskbar instead.',
    );
    expect(failed.window?.sent).toContainEqual({ channel: Channel.HostChanged, args: [] });
    expect((failed.window as { flashing?: boolean } | undefined)?.flashing).toBe(true);
  });

  it('attaches to a bridge already on the port when the human agrees, with its token', async () => {
    const other = await startBridge();
    const app = runApp(['--port', String(other.port), '--data-dir', other.context.config.dataDir], {
      FAKE_ATTACH: 'yes',
    });
    const r = await app.until((r) => Boolean(r.tray && r.ipc[Channel.Token]), 'the attached window');
    expect(r.dialogs[0]?.message).toBe(
      `Another AITI Bridge (${other.context.version}) is already running on ${other.url}.`,
    );
    expect(r.window?.url).toBe(`${other.url}/aiti/ui/`);
    expect(r.ipc[Channel.Token]?.answer).toBe(other.token);
    expect(r.tray?.tooltip).toBe(`AITI Bridge (attached to ${other.url}) — no open asks`);
  });

  it('exits quietly with 0 when the human chooses Quit instead of the other bridge: no error box', async () => {
    const other = await startBridge();
    const app = runApp(['--port', String(other.port), '--data-dir', other.context.config.dataDir]);
    expect(await app.exited).toBe(0);
    expect(app.report()?.dialogs).toEqual([
      {
        kind: 'question',
        message: `Another AITI Bridge (${other.context.version}) is already running on ${other.url}.`,
      },
    ]);
  });

  it('shows a bad setting in an error box and exits with 2', async () => {
    const app = runApp(['--port', 'eighty']);
    expect(await app.exited).toBe(2);
    expect(app.report()?.dialogs).toEqual([
      {
        kind: 'error',
        title: 'AITI Bridge cannot start',
        content: '--port must be a port number from 0 to 65535, got "eighty"',
      },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { runCommand } from '../../electron/run-command.js';
import { trayNotice, trayPresence } from '../../electron/tray-presence.js';
import { ownName, sessionBus, whyNoNameOwner, whyNoSessionBus } from './session-bus.js';

const onBus = (address: string, desktop: Record<string, string>) => ({
  platform: 'linux' as const,
  env: desktop,
  run: (command: string, args: string[]) =>
    runCommand(command, args, { env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: address } }),
});

describe('whether the tray icon can be seen', () => {
  it('GNOME without the AppIndicator extension (no StatusNotifierWatcher on the bus): missing', async (ctx) => {
    const why = whyNoSessionBus();
    if (why) return ctx.skip(why);
    const address = await sessionBus();
    expect(
      await trayPresence(onBus(address, { XDG_CURRENT_DESKTOP: 'ubuntu:GNOME', XDG_SESSION_TYPE: 'wayland' })),
    ).toBe('missing');
    // an X11 session of another desktop may still show the old XEmbed icon: nobody can tell
    expect(await trayPresence(onBus(address, { XDG_CURRENT_DESKTOP: 'XFCE', XDG_SESSION_TYPE: 'x11' }))).toBe(
      'unknown',
    );
  });

  it('a desktop whose panel hosts StatusNotifierItems (KDE, GNOME with AppIndicator): shown', async (ctx) => {
    const why = whyNoSessionBus() ?? whyNoNameOwner();
    if (why) return ctx.skip(why);
    const address = await sessionBus();
    await ownName(address, 'org.kde.StatusNotifierWatcher');
    expect(await trayPresence(onBus(address, { XDG_CURRENT_DESKTOP: 'ubuntu:GNOME' }))).toBe('shown');
  });

  it('no session bus to ask: unknown; macOS and Windows: shown', async () => {
    const noBus = { platform: 'linux' as const, env: {}, run: async () => undefined };
    expect(await trayPresence(noBus)).toBe('unknown');
    expect(await trayPresence({ ...noBus, platform: 'darwin' })).toBe('shown');
    expect(await trayPresence({ ...noBus, platform: 'win32' })).toBe('shown');
  });

  it('the window says how to quit when the tray may be out of sight', () => {
    expect(trayNotice('shown')).toBeUndefined();
    expect(trayNotice('missing')).toContain('closing this window quits AITI Bridge');
    expect(trayNotice('unknown')).toContain('quit it with File → Quit (Ctrl+Q) here');
  });
});

import { describe, expect, it } from 'vitest';
import { COMPOSE_ARG, parseLaunchArgs } from '../../electron/launch-args.js';
import { enabledFeatures, isWaylandSession } from '../../electron/linux-desktop.js';

describe('the Linux desktop session', () => {
  it('turns on the GlobalShortcuts portal in a Wayland session only, keeping features asked for', () => {
    const portal = 'GlobalShortcutsPortal,GlobalShortcutsPortalPreferredTrigger';
    expect(enabledFeatures('linux', { XDG_SESSION_TYPE: 'wayland' }, '')).toBe(portal);
    expect(enabledFeatures('linux', { WAYLAND_DISPLAY: 'wayland-0' }, '')).toBe(portal);
    expect(enabledFeatures('linux', { XDG_SESSION_TYPE: 'wayland' }, 'WebRTCPipeWireCapturer')).toBe(
      `WebRTCPipeWireCapturer,${portal}`,
    );
    expect(enabledFeatures('linux', { XDG_SESSION_TYPE: 'wayland' }, 'GlobalShortcutsPortal')).toBe(portal);
    // X11, or XWayland forced by the session type: the X11 key grab works
    expect(enabledFeatures('linux', { XDG_SESSION_TYPE: 'x11', WAYLAND_DISPLAY: 'wayland-0' }, '')).toBe('');
    expect(enabledFeatures('darwin', { XDG_SESSION_TYPE: 'wayland' }, '')).toBe('');
    expect(isWaylandSession('linux', {})).toBe(false);
  });

  it('--compose opens the composer: a command the desktop can bind to a key of its own', () => {
    expect(parseLaunchArgs(['/opt/AITI Bridge/aiti-bridge-desktop', COMPOSE_ARG])).toMatchObject({
      compose: true,
      hidden: false,
    });
    expect(parseLaunchArgs(['--port', '9000'])).toEqual({ bridge: ['--port', '9000'], hidden: false, compose: false });
  });
});

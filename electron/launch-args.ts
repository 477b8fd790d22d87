import { OPTIONS, takesValue } from '../bridge/config.js';
import { HIDDEN_ARG } from './login-item.js';

/** The argument that opens the composer addressed to all agents: a shortcut the desktop's own settings can bind. */
export const COMPOSE_ARG = '--compose';

export interface LaunchArgs {
  /** the bridge's own flags (--port, --data-dir …), handed to resolveConfig like the CLI's */
  bridge: string[];
  /** launched at login: stay in the tray */
  hidden: boolean;
  /** open the composer addressed to all agents (a second launch with it reaches the running app) */
  compose: boolean;
}

/**
 * Picks our flags out of the process's argv, which also carries Electron's and Chromium's switches
 * (--no-sandbox, --enable-logging …) and, in development, the path of the main script.
 */
export function parseLaunchArgs(argv: readonly string[]): LaunchArgs {
  const bridge: string[] = [];
  let hidden = false;
  let compose = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === HIDDEN_ARG) {
      hidden = true;
      continue;
    }
    if (arg === COMPOSE_ARG) {
      compose = true;
      continue;
    }
    const flag = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    const option = OPTIONS.find((o) => o.flag === flag);
    if (!option) continue;
    bridge.push(arg);
    const next = argv[i + 1];
    if (takesValue(option) && !arg.includes('=') && next !== undefined) {
      bridge.push(next);
      i++;
    }
  }
  return { bridge, hidden, compose };
}

import { OPTIONS } from '../bridge/config.js';
import { HIDDEN_ARG } from './login-item.js';

export interface LaunchArgs {
  /** the bridge's own flags (--port, --data-dir …), handed to resolveConfig like the CLI's */
  bridge: string[];
  /** launched at login: stay in the tray */
  hidden: boolean;
}

/**
 * Picks our flags out of the process's argv, which also carries Electron's and Chromium's switches
 * (--no-sandbox, --enable-logging …) and, in development, the path of the main script.
 */
export function parseLaunchArgs(argv: readonly string[]): LaunchArgs {
  const bridge: string[] = [];
  let hidden = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === HIDDEN_ARG) {
      hidden = true;
      continue;
    }
    const flag = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    const option = OPTIONS.find((o) => o.flag === flag);
    if (!option) continue;
    bridge.push(arg);
    const next = argv[i + 1];
    if (option.kind !== 'bool' && !arg.includes('=') && next !== undefined) {
      bridge.push(next);
      i++;
    }
  }
  return { bridge, hidden };
}

import { randomBytes } from 'node:crypto';
import type { RunCommand } from './run-command.js';

/** The variables the app takes from the login shell: where Node is, and where the MCP clients keep their files. */
export const SHELL_VARIABLES = ['PATH', 'CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'GEMINI_CLI_HOME'] as const;

export interface ShellEnvDeps {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  run: RunCommand;
}

/**
 * The variables a terminal of this user would have. An app started from the macOS dock, or from a Linux desktop's
 * menu, gets the session's environment, without what the shell's startup files add (nvm, Homebrew, Volta, an
 * exported CLAUDE_CONFIG_DIR …). Like VS Code, the app asks the user's login shell once (`$SHELL -ilc env`,
 * bounded to 5 s) and keeps those variables; Windows processes already get the user's environment.
 */
export async function loginShellEnv(deps: ShellEnvDeps): Promise<NodeJS.ProcessEnv> {
  if (deps.platform === 'win32') return {};
  const shell = deps.env.SHELL || (deps.platform === 'darwin' ? '/bin/zsh' : '/bin/sh');
  // what startup files print around it (a banner, a prompt) stays outside the marks
  const mark = `__aiti_env_${randomBytes(6).toString('hex')}__`;
  const result = await deps.run(shell, ['-ilc', `printf '%s\\n' '${mark}'; env; printf '%s\\n' '${mark}'`], {
    timeoutMs: 5000,
    env: { ...deps.env, AITI_SHELL_ENV_PROBE: '1' },
  });
  if (!result) return {};
  const [, inside = ''] = result.stdout.split(`${mark}\n`);
  const found: NodeJS.ProcessEnv = {};
  for (const line of inside.split('\n')) {
    const eq = line.indexOf('=');
    const name = line.slice(0, eq);
    if (eq > 0 && (SHELL_VARIABLES as readonly string[]).includes(name)) found[name] = line.slice(eq + 1);
  }
  return found;
}

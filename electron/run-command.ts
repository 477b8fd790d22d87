import { spawn } from 'node:child_process';

/** What a command printed and how it ended; undefined when it could not be started at all (not installed). */
export type CommandResult = { status: number | null; stdout: string } | undefined;

export type RunCommand = (
  command: string,
  args: string[],
  options?: { timeoutMs?: number; env?: NodeJS.ProcessEnv },
) => Promise<CommandResult>;

const MAX_OUTPUT = 4 * 1024 * 1024;

/**
 * Runs a program without a shell, bounded in time: a hung probe must never hold the app up. It runs in a process
 * group of its own, so what it started (a login shell's `sleep`, a stuck `nvm`) dies with it at the deadline.
 */
export const runCommand: RunCommand = (command, args, options = {}) =>
  new Promise((resolve) => {
    const group = process.platform !== 'win32';
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(command, args, {
        stdio: ['ignore', 'pipe', 'ignore'],
        windowsHide: true,
        detached: group,
        ...(options.env ? { env: options.env } : {}),
      });
    } catch {
      return resolve(undefined);
    }
    let stdout = '';
    let done = false;
    const finish = (result: CommandResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(result);
    };
    const timer = setTimeout(() => {
      try {
        if (group && child.pid) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // already gone
      }
      finish({ status: null, stdout });
    }, options.timeoutMs ?? 5000);
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      if (stdout.length < MAX_OUTPUT) stdout += chunk;
    });
    child.on('error', () => finish(undefined));
    child.on('close', (code) => finish({ status: code, stdout }));
  });

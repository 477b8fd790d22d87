import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { OpenFilePayload } from '../protocol/index.js';
import type { BridgeContext } from '../context.js';

/**
 * open_file: Alt+click on a page element opens its source in the editor. The command (AITI_OPEN_CMD, default
 * `code --goto {file}:{line}`) runs without a shell; when it cannot start, the OS opener gets the file.
 * The path comes from a web page, so it must name an existing regular file, and the fallback opener refuses
 * files the OS would run rather than show.
 */
export type Runner = (cmd: string, args: string[]) => Promise<void>;

const EXECUTABLE = /\.(desktop|exe|bat|cmd|com|msi|scr|ps1|vbs|jar|app|command|sh|lnk|appimage)$/i;

export const runWithoutShell: Runner = (cmd, args) =>
  new Promise((done, fail) => {
    // the editor's exit status is its own business: started is done
    const child = execFile(cmd, args, { shell: false, windowsHide: true, timeout: 15_000 }, () => undefined);
    child.once('spawn', () => done());
    child.once('error', fail);
  });

/** Splits a command template into argv (quotes group words) and fills {file}, {line} and {column}. */
export function commandLine(template: string, target: OpenFilePayload): [string, string[]] {
  const words = template.match(/"[^"]*"|'[^']*'|\S+/g) ?? [];
  const argv = words.map((word) =>
    word
      .replace(/^(["'])(.*)\1$/, '$2')
      .replaceAll('{file}', target.file)
      .replaceAll('{line}', String(target.line ?? 1))
      .replaceAll('{column}', String(target.column ?? 1)),
  );
  const [cmd, ...args] = argv;
  if (!cmd)
    throw new Error(`the open command "${template}" is empty; set AITI_OPEN_CMD, e.g. "code --goto {file}:{line}"`);
  return [cmd, args];
}

function fallbackOpener(file: string): [string, string[]] {
  if (process.platform === 'darwin') return ['open', [file]];
  if (process.platform === 'win32') return ['explorer', [file]];
  return ['xdg-open', [file]];
}

/** Opens a source location; throws a message for people when it cannot. */
export async function openFile(
  openCmd: string,
  target: OpenFilePayload,
  run: Runner = runWithoutShell,
): Promise<string> {
  const file = isAbsolute(target.file) ? target.file : resolve(target.file);
  let isFile = false;
  try {
    isFile = statSync(file).isFile();
  } catch {
    isFile = false;
  }
  if (!isFile)
    throw new Error(
      `open_file: "${file}" is not an existing file (is the bridge running on the machine with the sources?)`,
    );
  const located = { ...target, file };
  const [cmd, args] = commandLine(openCmd, located);
  try {
    await run(cmd, args);
    return `${cmd} ${args.join(' ')}`;
  } catch (error) {
    if (EXECUTABLE.test(file))
      throw new Error(
        `open_file: "${cmd}" did not start and "${file}" is not opened with the OS opener (it could run)`,
      );
    const [opener, openerArgs] = fallbackOpener(file);
    try {
      await run(opener, openerArgs);
      return `${opener} ${openerArgs.join(' ')}`;
    } catch {
      throw new Error(
        `open_file: neither "${cmd}" (${(error as Error).message}) nor ${opener} could start; set AITI_OPEN_CMD to your editor, e.g. "code --goto {file}:{line}"`,
      );
    }
  }
}

/** Listens for open_file events of operable pages and opens them. */
export function watchOpenFile(bridge: BridgeContext, run: Runner = runWithoutShell): void {
  bridge.pageEvents.on((event) => {
    if (event.type !== 'open_file') return;
    const page = bridge.pages.get(event.pageId);
    if (!page || !bridge.pages.isOperable(page)) return;
    openFile(bridge.config.openCmd, event.payload as OpenFilePayload, run).then(
      (ran) => bridge.log.info(`open_file: ${ran}`),
      (error: Error) => bridge.log.warn(error.message),
    );
  });
}

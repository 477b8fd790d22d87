import { execFile } from 'node:child_process';
import { realpathSync, statSync } from 'node:fs';
import { basename, isAbsolute, relative, resolve } from 'node:path';
import type { OpenFilePayload } from '../protocol/index.js';
import type { BridgeConfig } from '../config.js';
import type { Logger } from '../log.js';
import type { PageEventBus } from './events.js';
import type { PageRegistry } from './registry.js';

/**
 * open_file: Alt+click on a page element opens its source in the editor. The command (AITI_OPEN_CMD, default
 * `code --goto {file}:{line}`) runs without a shell; when it cannot start, the OS opener gets the file.
 * The path comes from a web page, so it must name an existing regular text or source file (allow-listed by
 * extension, symlinks resolved), and the fallback opener gets only types no OS runs.
 */
export type Runner = (cmd: string, args: string[]) => Promise<void>;

/** Text and source files of a web project: the only files open_file opens, in the editor. */
const SOURCE = new Set(
  (
    'ts tsx mts cts js jsx mjs cjs vue svelte astro css scss sass less styl html htm svg json jsonc json5 md mdx txt ' +
    'yaml yml toml xml graphql gql csv log map env ini conf py rb php go rs java kt swift c h cc cpp hpp cs sql ' +
    'sh bash zsh ps1 bat cmd lua dart ex exs erb hbs ejs pug njk liquid twig'
  ).split(' '),
);

/**
 * What the OS opener may get when the editor did not start: types no OS runs. Markup is left out (a browser would
 * run its scripts), so are scripts of any language, and `.js` on Windows, where Windows Script Host runs it.
 */
const SAFE_FOR_OS = new Set(
  'ts tsx mts cts jsx vue svelte astro css scss sass less styl json jsonc json5 md mdx txt yaml yml toml graphql gql csv log map'.split(
    ' ',
  ),
);
const SAFE_FOR_OS_EXCEPT_WINDOWS = new Set(['js', 'mjs', 'cjs']);

export interface OpenFileOptions {
  /** when set, only files inside this directory (after resolving symlinks) are opened */
  projectRoot?: string;
  /** the platform whose OS opener is the fallback (a parameter so tests can speak for each) */
  platform?: NodeJS.Platform;
}

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

function fallbackOpener(file: string, platform: NodeJS.Platform): [string, string[]] {
  if (platform === 'darwin') return ['open', [file]];
  if (platform === 'win32') return ['explorer', [file]];
  return ['xdg-open', [file]];
}

/** The extension a file has for its OS: lower case, and `foo.hta.` or `foo.hta ` count as `hta` (Windows drops trailing dots and spaces). */
export function extensionOf(file: string): string {
  const name = basename(file).replace(/(?<![. ])[. ]+$/, '');
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/**
 * The real path of a file a page named, checked: an existing regular file (symlinks resolved: a link named
 * `a.txt` to a `.desktop` file is a `.desktop` file), with a text or source extension, inside the project root
 * when one is set. Throws a message for people otherwise.
 */
export function checkedSourceFile(given: string, projectRoot?: string): string {
  const file = isAbsolute(given) ? given : resolve(given);
  let real: string;
  try {
    real = realpathSync.native(file);
    if (!statSync(real).isFile()) throw new Error('not a regular file');
  } catch {
    throw new Error(
      `open_file: "${file}" is not an existing file (is the bridge running on the machine with the sources?)`,
    );
  }
  const name = basename(real);
  // Windows would open `a.hta.` as `a.hta` and `a.hta:x.txt` as a stream of `a.hta`: no source file looks like that
  if (/[. ]$/.test(name) || name.includes(':'))
    throw new Error(`open_file: "${real}" is not opened: its name ends in a dot or space or names a stream`);
  if (!SOURCE.has(extensionOf(real)))
    throw new Error(
      `open_file: "${real}" is not opened: only text and source files are (.ts, .tsx, .js, .vue, .css, .html, .json, .md, .txt …)`,
    );
  if (projectRoot) {
    let root: string;
    try {
      root = realpathSync.native(projectRoot);
    } catch {
      throw new Error(`open_file: the project root "${projectRoot}" does not exist; fix --project-root`);
    }
    const inside = relative(root, real);
    if (inside.startsWith('..') || isAbsolute(inside))
      throw new Error(`open_file: "${real}" is outside the project root ${root} (--project-root); it is not opened`);
  }
  return real;
}

/** Opens a source location; throws a message for people when it cannot. */
export async function openFile(
  openCmd: string,
  target: OpenFilePayload,
  run: Runner = runWithoutShell,
  options: OpenFileOptions = {},
): Promise<string> {
  const file = checkedSourceFile(target.file, options.projectRoot);
  const platform = options.platform ?? process.platform;
  const located = { ...target, file };
  const [cmd, args] = commandLine(openCmd, located);
  try {
    await run(cmd, args);
    return `${cmd} ${args.join(' ')}`;
  } catch (error) {
    const ext = extensionOf(file);
    const safe = SAFE_FOR_OS.has(ext) || (platform !== 'win32' && SAFE_FOR_OS_EXCEPT_WINDOWS.has(ext));
    if (!safe)
      throw new Error(
        `open_file: "${cmd}" did not start and "${file}" is not opened with the OS opener (it could run or show active content); set AITI_OPEN_CMD to your editor`,
      );
    const [opener, openerArgs] = fallbackOpener(file, platform);
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
export function watchOpenFile(
  bridge: {
    config: Pick<BridgeConfig, 'openCmd' | 'projectRoot'>;
    pages: Pick<PageRegistry, 'get' | 'isOperable'>;
    pageEvents: Pick<PageEventBus, 'on' | 'drop'>;
    log: Logger;
  },
  run: Runner = runWithoutShell,
): void {
  bridge.pageEvents.on((event) => {
    if (event.type !== 'open_file') return;
    const page = bridge.pages.get(event.pageId);
    if (!page) return;
    // Only a page that proved itself with a secret, from an origin the human trusts, may start the editor.
    if (!bridge.pages.isOperable(page)) return bridge.pageEvents.drop('held', 'open_file');
    if (page.legacy) return bridge.pageEvents.drop('legacy', 'open_file');
    openFile(bridge.config.openCmd, event.payload as OpenFilePayload, run, {
      ...(bridge.config.projectRoot ? { projectRoot: bridge.config.projectRoot } : {}),
    }).then(
      (ran) => bridge.log.info(`open_file: ${ran}`),
      (error: Error) => bridge.log.warn(error.message),
    );
  });
}

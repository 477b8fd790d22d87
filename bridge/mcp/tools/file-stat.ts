import { lstat, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { z } from 'zod';
import { strictArgs } from '../../protocol/index.js';
import { defineTool, toolInput, ToolError } from '../tool.js';

export const fileStat = defineTool({
  name: 'file_stat',
  title: 'File info',
  description:
    'Whether a path exists on this machine: type, size, modified time. Absolute paths only (inside --project-root when the bridge has one).',
  inputSchema: toolInput('file_stat', strictArgs({ path: z.string().min(1) })),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async handle({ path }, call) {
    if (!isAbsolute(path)) {
      throw new ToolError(
        `path "${path}" is relative; give an absolute path (file_stat does not guess a directory)`,
        'path',
      );
    }
    const root = call.bridge.config.projectRoot;
    if (root) await insideRoot(path, root);
    let link;
    try {
      link = await lstat(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return { structured: { path, exists: false } };
      if (code === 'EACCES' || code === 'EPERM')
        throw new ToolError(`not allowed to look at "${path}" (${code})`, 'path');
      throw error;
    }
    const symlink = link.isSymbolicLink();
    const target = symlink ? await stat(path).catch(() => undefined) : link;
    if (!target) return { structured: { path, exists: false, symlink: true, broken: true } };
    const type = target.isFile() ? 'file' : target.isDirectory() ? 'directory' : 'other';
    return {
      structured: {
        path,
        exists: true,
        type,
        size: target.size,
        mtime: target.mtime.toISOString(),
        ...(symlink ? { symlink: true } : {}),
      },
    };
  },
});

/**
 * With --project-root, file_stat answers only inside it: the path's real location (symlinks resolved, down to the
 * deepest part that exists) must be under the root's, so a link in the project cannot reach /etc.
 */
async function insideRoot(path: string, root: string): Promise<void> {
  const realRoot = await realpath(root).catch(() => {
    throw new ToolError(`the project root "${root}" does not exist; fix --project-root`, 'path');
  });
  const inside = relative(realRoot, await realLocation(path));
  if (inside.startsWith('..') || isAbsolute(inside))
    throw new ToolError(`path "${path}" is outside the project root ${realRoot} (--project-root)`, 'path');
}

async function realLocation(path: string): Promise<string> {
  const missing: string[] = [];
  let at = resolve(path);
  for (;;) {
    try {
      return join(await realpath(at), ...missing.reverse());
    } catch {
      const parent = dirname(at);
      if (parent === at) return resolve(path);
      missing.push(basename(at));
      at = parent;
    }
  }
}

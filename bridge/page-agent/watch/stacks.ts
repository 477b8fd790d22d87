import { mapToSource } from './sourcemap.js';

/**
 * Stacks as the developer reads them: the page agent's own frames removed (its console wrapper is not where
 * the app logged), and each position in a served module mapped through that module's source map to the file
 * and line written (Vite serves `App.tsx?t=…:40:12` for line 22). Unmapped frames stay as they were.
 */
const FRAME = /(webpack-internal:\/\/\/\S+?|(?:https?|file):\/\/[^\s()]+?):(\d+):(\d+)/;
const MAX_MAPPED = 12;

function isAgentFrame(line: string): boolean {
  return /\/aiti\/page\.js\b/.test(line);
}

/** The path of a mapped source, joined to the project root when it is relative to it (as Vite gives them). */
export function local(file: string, root: string | undefined): string {
  if (file.startsWith('/@fs/')) return file.slice(4);
  if (!root || (file.startsWith('/') && file.startsWith(root))) return file;
  return `${root.replace(/(?<![\\/])[\\/]+$/, '')}/${file.replace(/^\/+/, '')}`;
}

function sameOrigin(url: string): boolean {
  // webpack's eval'd modules: mapped from this page's own chunks
  if (url.startsWith('webpack-internal:///')) return true;
  try {
    return new URL(url).origin === location.origin;
  } catch {
    return false;
  }
}

export function withoutAgentFrames(stack: string): string {
  return stack
    .split('\n')
    .filter((line) => !isAgentFrame(line))
    .join('\n');
}

export async function mapStack(stack: string, root?: string): Promise<string> {
  const lines = withoutAgentFrames(stack).split('\n');
  let mapped = 0;
  const out = await Promise.all(
    lines.map(async (line) => {
      const match = FRAME.exec(line);
      if (!match?.[1] || mapped >= MAX_MAPPED) return line;
      const url = match[1];
      // a stack is page data: only this origin's own modules are fetched for their maps
      if (!sameOrigin(url)) return line;
      mapped++;
      const position = await mapToSource(url, Number(match[2]), Number(match[3])).catch(() => undefined);
      if (!position) return line;
      return line.replace(match[0], `${local(position.file, root)}:${position.line}:${position.column}`);
    }),
  );
  return out.join('\n');
}

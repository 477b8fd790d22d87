import { readFileSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { appendLine } from '../private-files.js';

/** Bytes of a journal file that were refused (their appends answered 503) but could not be cut off. */
export interface VoidRange {
  from: number;
  to: number;
}

/**
 * `<sessions>/void.jsonl`: when a batch fails and even cutting it off fails (fsync and ftruncate both refused), the
 * refused lines may still be in the file. Their byte range is written here, and replay skips it, so a push that was
 * answered 503 never comes back after a restart. One line each: `{"file":"<agent dir>/<name>","from":n,"to":n}`.
 */
export class VoidLines {
  private readonly path: string;

  constructor(private readonly dir: string) {
    this.path = join(dir, 'void.jsonl');
  }

  /** Writes one range off; resolves to what went wrong, for the log, or undefined once it is on disk. */
  async add(file: string, from: number, to: number): Promise<string | undefined> {
    try {
      await appendLine(this.path, JSON.stringify({ file: relative(this.dir, file), from, to }) + '\n');
      return undefined;
    } catch (error) {
      return `the refused lines at bytes ${from}-${to} of ${file} could not be cut off nor written off (${(error as Error).message}); they may come back at the next start`;
    }
  }

  /** Every range written off, by file path (read once, at start). */
  read(): Map<string, VoidRange[]> {
    const byFile = new Map<string, VoidRange[]>();
    let text = '';
    try {
      text = readFileSync(this.path, 'utf8');
    } catch {
      return byFile;
    }
    for (const line of text.split('\n')) {
      let entry: { file?: unknown; from?: unknown; to?: unknown };
      try {
        entry = JSON.parse(line) as typeof entry;
      } catch {
        continue; // a torn line: its range was never acknowledged as written off
      }
      const { file, from, to } = entry;
      if (typeof file !== 'string' || isAbsolute(file) || typeof from !== 'number' || typeof to !== 'number') continue;
      const path = join(this.dir, file);
      byFile.set(path, [...(byFile.get(path) ?? []), { from, to }]);
    }
    return byFile;
  }
}

import { closeSync, fchmodSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { QuickReplies } from '../protocol/index.js';
import type { Logger } from '../log.js';
import { PRIVATE_FILE } from '../private-files.js';

/**
 * The human's quick replies in `<appDir>/quick-replies.json`: one file for every window (desktop app and
 * browsers alike), replaced whole. A save is on disk (written, fsynced, renamed, the directory fsynced) before
 * it resolves, so the 2xx that follows is a promise; a torn or foreign file reads as no replies, with a warning.
 */
export class QuickReplyStore {
  private readonly file: string;

  constructor(
    appDir: string,
    private readonly log: Pick<Logger, 'warn'>,
  ) {
    this.file = join(appDir, 'quick-replies.json');
  }

  read(): QuickReplies {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return { replies: [] };
    }
    try {
      return QuickReplies.parse(JSON.parse(text));
    } catch (error) {
      this.log.warn(`quick replies: ${this.file} is not readable (${(error as Error).message}); starting empty`);
      return { replies: [] };
    }
  }

  save(list: QuickReplies): QuickReplies {
    const temp = `${this.file}.tmp`;
    const fd = openSync(temp, 'w', PRIVATE_FILE);
    try {
      // only the human reads their replies, whatever the umask or an older temp file's mode
      if (process.platform !== 'win32') fchmodSync(fd, PRIVATE_FILE);
      writeSync(fd, `${JSON.stringify(list, null, 2)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, this.file);
    const dir = openSync(dirname(this.file), 'r');
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
    return list;
  }
}

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { QuickReplies } from '../protocol/index.js';
import type { Logger } from '../log.js';
import { replaceFile } from '../private-files.js';

/**
 * The human's quick replies in `<appDir>/quick-replies.json`: one file for every window (desktop app and
 * browsers alike), replaced whole. A save is on disk (written, fsynced, renamed, the directory fsynced) before
 * it resolves, so the 2xx that follows is a promise; one that fails says what is on disk (DiskError: nothing
 * changed, or the new list is in the file, unconfirmed). A torn or foreign file reads as no replies, with a warning.
 */
export class QuickReplyStore {
  private readonly file: string;

  constructor(
    appDir: string,
    private readonly log: Pick<Logger, 'warn'>,
  ) {
    this.file = join(appDir, 'quick-replies.json');
  }

  async read(): Promise<QuickReplies> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
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

  async save(list: QuickReplies): Promise<QuickReplies> {
    await replaceFile(this.file, `${JSON.stringify(list, null, 2)}\n`, 'the quick replies could not be saved');
    return list;
  }
}

import { closeSync, fsyncSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** A startup problem a person can fix (port in use, data dir not writable): one line, no stack. */
export class StartupError extends Error {}

/**
 * Checks at start that the data dir takes a write and an fsync. A read-only or foreign-owned one stops the bridge
 * with one line saying so (better than answering every push 503); a full disk only warns: reads work, and writes
 * resume by themselves once space is freed. Returns the warning, if any.
 */
export function checkWritable(dir: string): string | undefined {
  const probe = join(dir, `.write-check-${process.pid}`);
  try {
    const fd = openSync(probe, 'w', 0o600);
    try {
      writeSync(fd, 'ok\n');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
      unlinkSync(probe);
    }
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT')
      return `the data dir "${dir}" is full (${(error as Error).message}): pushes, answers and reads are refused (503) until space is freed`;
    throw new StartupError(
      `the data dir "${dir}" cannot be written (${(error as Error).message}); make it writable, or pick another with --data-dir or AITI_BRIDGE_DATA_DIR`,
    );
  }
}

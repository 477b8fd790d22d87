import { fstatSync, truncateSync } from 'node:fs';
import { nodeDisk, type JournalDisk } from '../../bridge/journal/disk.js';

function errno(code: string, syscall: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${message}, ${syscall}`), { code, syscall });
}

/**
 * A real disk (the journal's files are real files) with the faults a real one has, under the test's control:
 * - `freeBytes`: how much more fits; a write past it is short, then fails with ENOSPC, as on a full disk;
 * - `failSync`: the next fsyncs fail with EIO;
 * - `refuseWrites`: every write fails with that code (EROFS, EACCES) until it is cleared;
 * - `failTruncate`: the next cuts (ftruncate) fail with EIO, so a failed batch's fragment stays in the file;
 * - `holdSyncs()`: fsyncs wait until released, as on a slow disk, so a test can act while a batch is being fsynced
 *   (`syncing` says how many wait);
 * - `powerCut()`: every file loses what was written but never fsynced, as the page cache does when the power goes.
 * It counts fsyncs, so a test sees that an acknowledged line went through one.
 */
export class FaultyDisk implements JournalDisk {
  freeBytes = Infinity;
  failSync = 0;
  /** while set, every write fails with this code (EROFS: the file system was remounted read-only) */
  refuseWrites?: string;
  failTruncate = 0;
  syncs = 0;
  /** fsyncs waiting for `holdSyncs`'s release */
  syncing = 0;
  private held: Promise<void> | undefined;
  /** per open file: its path and how many of its bytes an fsync made durable */
  private readonly files = new Map<number, { path: string; durable: number }>();
  /** closed files keep what they had on disk */
  private readonly closed: Array<{ path: string; durable: number }> = [];

  async open(path: string): Promise<number> {
    const fd = await nodeDisk.open(path);
    this.files.set(fd, { path, durable: fstatSync(fd).size });
    return fd;
  }

  async write(fd: number, buffer: Buffer, offset: number): Promise<number> {
    if (this.refuseWrites) throw errno(this.refuseWrites, 'write', 'refused');
    const fits = Math.min(this.freeBytes, buffer.length - offset);
    if (fits <= 0) throw errno('ENOSPC', 'write', 'no space left on device');
    const wrote = await nodeDisk.write(fd, buffer.subarray(0, offset + fits), offset);
    this.freeBytes -= wrote;
    return wrote;
  }

  syncDir(dir: string): Promise<void> {
    return nodeDisk.syncDir(dir);
  }

  /** Holds every fsync from now until the returned function is called. */
  holdSyncs(): () => void {
    let release: () => void = () => undefined;
    this.held = new Promise((resolve) => (release = resolve));
    return () => {
      this.held = undefined;
      release();
    };
  }

  async sync(fd: number): Promise<void> {
    if (this.held) {
      this.syncing++;
      await this.held;
      this.syncing--;
    }
    if (this.failSync > 0) {
      this.failSync--;
      throw errno('EIO', 'fsync', 'i/o error');
    }
    await nodeDisk.sync(fd);
    this.syncs++;
    const file = this.files.get(fd);
    if (file) file.durable = fstatSync(fd).size;
  }

  async truncate(fd: number, length: number): Promise<void> {
    if (this.failTruncate > 0) {
      this.failTruncate--;
      throw errno('EIO', 'ftruncate', 'i/o error');
    }
    const before = fstatSync(fd).size;
    await nodeDisk.truncate(fd, length);
    this.freeBytes += Math.max(0, before - length);
    const file = this.files.get(fd);
    if (file) file.durable = Math.min(file.durable, length);
  }

  async close(fd: number): Promise<void> {
    const file = this.files.get(fd);
    if (file) this.closed.push(file);
    this.files.delete(fd);
    await nodeDisk.close(fd);
  }

  linked(fd: number): Promise<boolean> {
    return nodeDisk.linked(fd);
  }

  /** What a power cut leaves: each file as far as its last fsync (files stay open; the test replays elsewhere). */
  powerCut(): void {
    for (const { path, durable } of [...this.files.values(), ...this.closed]) {
      try {
        truncateSync(path, durable);
      } catch {
        // deleted since
      }
    }
  }
}

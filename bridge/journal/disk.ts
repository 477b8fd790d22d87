import { close, fstat, fsync, ftruncate, open, write } from 'node:fs';
import { PRIVATE_FILE, syncDir } from '../private-files.js';

/**
 * The few file operations the journal's write path makes, as a port: node:fs in the bridge, and in tests a disk
 * that can fill up, fail an fsync, or lose on a power cut whatever was never fsynced, so "acknowledged = on disk"
 * is checked rather than assumed. Every one runs off the main thread (libuv's pool): a slow disk holds the lines
 * that wait for it, never the bridge.
 */
export interface JournalDisk {
  /** opens (creating, 0600) a file to append to */
  open(path: string): Promise<number>;
  /** writes from `offset` of the buffer; resolves how many bytes went (may be fewer; rejects ENOSPC and the like) */
  write(fd: number, buffer: Buffer, offset: number): Promise<number>;
  /** fsync: the bytes written so far reach the disk */
  sync(fd: number): Promise<void>;
  /** fsync of a directory, so a file made in it keeps its name after a power cut */
  syncDir(dir: string): Promise<void>;
  /** cuts the file back to `length` (a batch that failed leaves no fragment) */
  truncate(fd: number, length: number): Promise<void>;
  close(fd: number): Promise<void>;
  /** whether the open file still has a name (false once its folder was deleted: what is written there is lost) */
  linked(fd: number): Promise<boolean>;
}

const done =
  <T>(resolve: (value: T) => void, reject: (error: Error) => void) =>
  (error: Error | null, value: T) =>
    error ? reject(error) : resolve(value);

export const nodeDisk: JournalDisk = {
  open: (path) => new Promise((resolve, reject) => open(path, 'a', PRIVATE_FILE, done(resolve, reject))),
  write: (fd, buffer, offset) =>
    new Promise((resolve, reject) =>
      write(fd, buffer, offset, buffer.length - offset, null, (error, written) =>
        error ? reject(error) : resolve(written),
      ),
    ),
  sync: (fd) => new Promise((resolve, reject) => fsync(fd, (error) => (error ? reject(error) : resolve()))),
  syncDir,
  truncate: (fd, length) =>
    new Promise((resolve, reject) => ftruncate(fd, length, (error) => (error ? reject(error) : resolve()))),
  close: (fd) => new Promise((resolve, reject) => close(fd, (error) => (error ? reject(error) : resolve()))),
  linked: (fd) =>
    new Promise((resolve, reject) => fstat(fd, (error, stat) => (error ? reject(error) : resolve(stat.nlink > 0)))),
};

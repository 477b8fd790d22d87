import { closeSync, fstatSync, fsync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { PRIVATE_FILE } from '../private-files.js';

/**
 * The few file operations the journal's write path makes, as a port: node:fs in the bridge, and in tests a disk
 * that can fill up, fail an fsync, or lose on a power cut whatever was never fsynced, so "acknowledged = on disk"
 * is checked rather than assumed.
 */
export interface JournalDisk {
  /** opens (creating, 0600) a file to append to */
  open(path: string): number;
  /** writes from `offset` of the buffer; returns how many bytes went (may be fewer; throws ENOSPC and the like) */
  write(fd: number, buffer: Buffer, offset: number): number;
  /** fsync: the bytes written so far reach the disk */
  sync(fd: number): Promise<void>;
  /** cuts the file back to `length` (a batch that failed leaves no fragment) */
  truncate(fd: number, length: number): void;
  close(fd: number): void;
  /** whether the open file still has a name (false once its folder was deleted: what is written there is lost) */
  linked(fd: number): boolean;
}

export const nodeDisk: JournalDisk = {
  open: (path) => openSync(path, 'a', PRIVATE_FILE),
  write: (fd, buffer, offset) => writeSync(fd, buffer, offset),
  sync: (fd) => new Promise((resolve, reject) => fsync(fd, (error) => (error ? reject(error) : resolve()))),
  truncate: (fd, length) => ftruncateSync(fd, length),
  close: (fd) => closeSync(fd),
  linked: (fd) => fstatSync(fd).nlink > 0,
};

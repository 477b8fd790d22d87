import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './bridge.js';
import { withBuildLock } from './build-lock.js';

describe('the build lock the tests share (no flock on macOS and Windows)', () => {
  it('runs the work holding the lock, and frees it after, even when the work throws', () => {
    const lock = join(tempDir(), 'build.lock.d');
    expect(withBuildLock(lock, () => existsSync(lock))).toBe(true);
    expect(existsSync(lock)).toBe(false);
    expect(() =>
      withBuildLock(lock, () => {
        throw new Error('the build failed');
      }),
    ).toThrow('the build failed');
    expect(existsSync(lock)).toBe(false);
  });

  it('takes over a lock whose holder was killed while it built', async () => {
    const lock = join(tempDir(), 'build.lock.d');
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), String(holder.pid));
    const gone = new Promise((resolve) => holder.once('exit', resolve));
    holder.kill('SIGKILL');
    await gone;
    expect(withBuildLock(lock, () => 'built', 2000)).toBe('built');
  });

  it('waits for a live holder, and says so when it waits too long', () => {
    const lock = join(tempDir(), 'build.lock.d');
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), String(process.pid));
    expect(() => withBuildLock(lock, () => 'built', 300)).toThrow(`${lock} is still held after 0.3 s`);
  });
});

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { TestContext } from 'vitest';

/** libfaketime (Debian's faketime package) where Debian puts it for this machine's architecture. */
const LIBRARY = `/usr/lib/${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}-linux-gnu/faketime/libfaketime.so.1`;

/**
 * The environment of a child process whose wall clock (Date) runs `seconds` ahead of ours: a bridge started that
 * much later, without the test waiting for it. Its monotonic clock is left alone, as a restart's would be unrelated.
 */
export function wallClockAhead(seconds: number): Record<string, string> {
  return { LD_PRELOAD: LIBRARY, FAKETIME: `+${seconds}`, FAKETIME_DONT_FAKE_MONOTONIC: '1' };
}

/** Whether a child's wall clock can be moved here: the library is there and Node's Date follows it. */
function faketimeWorks(): string | undefined {
  const missing = `libfaketime is not at ${LIBRARY}; install it (apt-get install faketime) to run this test`;
  if (!existsSync(LIBRARY)) return missing;
  try {
    const ahead = execFileSync(process.execPath, ['-e', 'process.stdout.write(String(Date.now()))'], {
      env: { ...process.env, ...wallClockAhead(3600) },
    });
    return Number(ahead) - Date.now() > 3_000_000 ? undefined : `${missing} (Date did not move)`;
  } catch (error) {
    return `${missing} (${(error as Error).message.split('\n')[0] ?? ''})`;
  }
}

let checked: string | undefined | null = null;

/** Skips the test, visibly and with the reason, where a child's clock cannot be moved (CI installs it: .ci/run). */
export function needFaketime(ctx: TestContext): void {
  if (checked === null) checked = faketimeWorks();
  if (checked !== undefined) ctx.skip(checked);
}

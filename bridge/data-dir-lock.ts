import { createHash, createHmac, randomBytes } from 'node:crypto';
import { readFileSync, realpathSync, rmSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { createOnce, makeDirs } from './private-files.js';
import { StartupError } from './startup-error.js';

/** What the bridge holding a data dir says of itself to another one that tries to open it. */
export interface LockHolder {
  pid: number;
  version: string;
  startedAt: string;
  /** where it listens, once it does */
  url?: string;
}

/** The data dir is held by another bridge: a StartupError naming it (its process, its address) and how to reach it. */
export class DataDirInUse extends StartupError {
  constructor(
    readonly appDir: string,
    readonly holder: LockHolder | undefined,
  ) {
    super(inUseText(appDir, holder));
  }
}

export interface DataDirLock {
  /** Tells a bridge that tries the same data dir where this one listens. */
  listening(url: string): void;
  release(): Promise<void>;
}

/** How long a second bridge waits for the holder to say who it is. */
const ASK_MS = 2000;

/**
 * One bridge per data dir. The lock is a socket only the holding process can have open, so the kernel lets it go
 * when that process dies however it dies (a SIGKILL leaves no stale lock to clear): on Linux an abstract socket, on
 * Windows a named pipe, named after a hash of a secret kept in the data dir (`lock-id`, 0600); elsewhere (macOS) a
 * socket file in the data dir itself, taken over when nobody answers on it. Taken before anything in the data dir
 * is read or written (only the directory and `lock-id` are made, if missing). A second bridge asks the holder who
 * it is over the socket — the holder proves it knows the secret (an HMAC of the asker's nonce), so a process of
 * another user that took the name is told apart — and stops with a DataDirInUse, having touched nothing.
 */
export async function lockDataDir(appDir: string, self: Omit<LockHolder, 'url'>): Promise<DataDirLock> {
  try {
    makeDirs(appDir);
  } catch (error) {
    throw new StartupError(
      `cannot create the data dir "${appDir}": ${(error as Error).message}; pick another with --data-dir or AITI_BRIDGE_DATA_DIR`,
    );
  }
  const secret = await lockSecret(appDir);
  const address = lockAddress(appDir, secret);
  let info: LockHolder = { ...self };
  const server = createServer((socket) => {
    socket.on('error', () => undefined);
    socket.setTimeout(ASK_MS, () => socket.destroy());
    let asked = '';
    socket.on('data', (chunk: Buffer) => {
      asked += chunk.toString('latin1');
      const newline = asked.indexOf('\n');
      if (newline < 0) return;
      socket.end(JSON.stringify({ ...info, proof: proofOf(secret, asked.slice(0, newline)) }) + '\n');
    });
  });
  // the lock never keeps a process alive by itself
  server.unref();
  for (let attempt = 0; ; attempt++) {
    try {
      await listen(server, address);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw lockProblem(appDir, error);
      const holder = await askHolder(address, secret);
      // a socket file nobody answers on is what a dead bridge left (only where the lock is a file)
      if (holder === 'nobody' && isFile(address) && attempt === 0) {
        rmSync(address, { force: true });
        continue;
      }
      if (holder === 'impostor')
        throw new StartupError(
          `the lock of the data dir "${appDir}" is held by a process that is no bridge of this data dir (another user's?); nothing was read or written — find it (ss -xlp | grep aiti-bridge), or remove ${join(appDir, 'lock-id')} to give this data dir a new lock`,
        );
      throw new DataDirInUse(appDir, holder === 'nobody' || holder === 'silent' ? undefined : holder);
    }
  }
  return {
    listening: (url) => (info = { ...info, url }),
    release: () =>
      new Promise((resolve) =>
        server.close(() => {
          if (isFile(address)) rmSync(address, { force: true });
          resolve();
        }),
      ),
  };
}

/**
 * The secret the lock is named after: `lock-id` in the data dir, made once. A data dir that cannot take it (full,
 * read-only: the start says so next) gets a name from its path and this user instead — guessable by another user,
 * whose squatting the proof still tells apart.
 */
async function lockSecret(appDir: string): Promise<string> {
  try {
    return (await createOnce(join(appDir, 'lock-id'), randomBytes(16).toString('hex') + '\n')).trim();
  } catch {
    return `path:${realpathSync(appDir)}:${process.getuid?.() ?? ''}`;
  }
}

/** The lock's socket address for this data dir (its name shows the secret's hash, never the secret). */
function lockAddress(appDir: string, secret: string): string {
  if (process.platform !== 'linux' && process.platform !== 'win32') return join(appDir, 'bridge.lock');
  const name = `aiti-bridge-${createHash('sha256').update(secret).digest('hex').slice(0, 32)}`;
  return process.platform === 'win32' ? `\\\\.\\pipe\\${name}` : `\0${name}`;
}

function proofOf(secret: string, nonce: string): string {
  return createHmac('sha256', secret).update(`aiti-bridge-lock\n${nonce}`).digest('hex');
}

function isFile(address: string): boolean {
  return !address.startsWith('\0') && !address.startsWith('\\\\');
}

function listen(server: Server, address: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(address, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

type Answer = LockHolder | 'silent' | 'nobody' | 'impostor';

/**
 * Who holds the lock: what it says when it proves it knows the secret; 'impostor' when it does not, 'silent' when
 * it answers nothing in time, 'nobody' when nothing listens.
 */
function askHolder(address: string, secret: string): Promise<Answer> {
  return new Promise((resolve) => {
    const nonce = randomBytes(16).toString('hex');
    let text = '';
    let connected = false;
    const socket = connect(address);
    const timer = setTimeout(() => finish('silent'), ASK_MS);
    function finish(answer: Answer) {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    }
    socket.on('connect', () => {
      connected = true;
      socket.write(nonce + '\n');
    });
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    socket.on('end', () => {
      const holder = parseHolder(text);
      if (!holder) return finish(text ? 'impostor' : 'silent');
      finish(holder.proof === proofOf(secret, nonce) ? holder.info : 'impostor');
    });
    socket.on('error', () => finish(connected ? 'silent' : 'nobody'));
  });
}

function parseHolder(text: string): { info: LockHolder; proof: unknown } | undefined {
  try {
    const parsed = JSON.parse(text) as Partial<LockHolder> & { proof?: unknown };
    if (typeof parsed.pid !== 'number' || typeof parsed.version !== 'string' || typeof parsed.startedAt !== 'string')
      return undefined;
    return {
      info: {
        pid: parsed.pid,
        version: parsed.version,
        startedAt: parsed.startedAt,
        ...(typeof parsed.url === 'string' ? { url: parsed.url } : {}),
      },
      proof: parsed.proof,
    };
  } catch {
    return undefined;
  }
}

function lockProblem(appDir: string, error: unknown): StartupError {
  return new StartupError(
    `cannot lock the data dir "${appDir}" (${(error as Error).message}); pick another with --data-dir or AITI_BRIDGE_DATA_DIR`,
  );
}

/** What a second bridge says: who holds the data dir, how to open its window, and that it changed nothing. */
function inUseText(appDir: string, holder: LockHolder | undefined): string {
  if (!holder)
    return `the data dir "${appDir}" is in use by another aiti-bridge that does not answer (it may be stopping); nothing was read or written — stop it, or pick another data dir with --data-dir`;
  let window = '';
  if (holder.url) {
    const token = storedToken(appDir);
    window = `; its window: ${holder.url}/aiti/ui/${token ? `#token=${encodeURIComponent(token)}` : ' (with the --token it was started with)'}`;
  }
  return (
    `the data dir "${appDir}" is in use by another aiti-bridge (pid ${holder.pid}, version ${holder.version}, since ${holder.startedAt}` +
    `${holder.url ? `, listening on ${holder.url}` : ', still starting'})${window}. ` +
    `This one changed nothing: use that bridge, or stop it (kill ${holder.pid}) first, or give this one another --data-dir`
  );
}

/** The human's token the holder uses (this user's own data dir), to open its window; "" when unreadable. */
function storedToken(appDir: string): string {
  try {
    return readFileSync(join(appDir, 'token'), 'utf8').trim();
  } catch {
    return '';
  }
}

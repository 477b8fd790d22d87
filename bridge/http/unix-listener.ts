import { chmodSync, lstatSync, unlinkSync } from 'node:fs';
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import { dirname } from 'node:path';
import { PRIVATE_FILE, privateDir, sharedDirProblem } from '../private-files.js';
import { acceptUnixPeer } from './peer.js';

/**
 * `--socket <path>`: the bridge answers on a Unix socket too, the same app as on TCP. On a machine with other
 * users, loopback TCP is everyone's, while a socket in a directory only this user may enter is not: agents reach
 * the bridge there with `AITI_BRIDGE_URL=unix:<path>`, and no other user can connect or stand in for it. Its
 * errors are for the person starting the bridge (createBridge makes them StartupErrors).
 */
export interface UnixListener {
  server: Server;
  close(): Promise<void>;
}

const FIX =
  'put the socket in a directory only you may enter, e.g. --socket "$XDG_RUNTIME_DIR/aiti-bridge/bridge.sock"';

export async function listenUnix(
  path: string,
  handler: RequestListener,
  upgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => void,
): Promise<UnixListener> {
  if (process.platform === 'win32') throw new Error('--socket is for Linux and macOS; on Windows use TCP');
  const dir = dirname(path);
  let existed = true;
  try {
    lstatSync(dir);
  } catch {
    existed = false;
  }
  if (!existed) privateDir(dir);
  const problem = sharedDirProblem(dir);
  if (problem) throw new Error(`cannot listen on the socket ${path}: ${problem}; ${FIX}`);
  await removeStale(path);
  const server = createServer(handler);
  server.on('connection', acceptUnixPeer);
  server.on('upgrade', upgrade);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(new Error(`cannot listen on the socket ${path}: ${error.message}`)));
    server.listen(path, () => resolve());
  });
  chmodSync(path, PRIVATE_FILE);
  return {
    server,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      try {
        unlinkSync(path);
      } catch {
        // gone already
      }
    },
  };
}

/** A socket file nobody listens on (the bridge was killed) is removed; one that answers belongs to a running bridge. */
async function removeStale(path: string): Promise<void> {
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    return;
  }
  if (!stat.isSocket()) throw new Error(`cannot listen on the socket ${path}: a file that is not a socket is there`);
  const answers = await new Promise<boolean>((resolve) => {
    const probe = connect(path);
    probe.once('connect', () => (probe.destroy(), resolve(true)));
    probe.once('error', () => resolve(false));
  });
  if (answers) throw new Error(`the socket ${path} is in use (another aiti-bridge?); stop it or pick another --socket`);
  unlinkSync(path);
}

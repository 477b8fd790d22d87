import type { Server as HttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { StartupError } from './startup-error.js';

/**
 * The bridge's port, taken before anything else is loaded or read (`aiti-bridge` holds it while it loads its
 * modules and replays the journal): a client that comes back to a restarting bridge connects and waits for its
 * answer, instead of being refused and giving up (the MCP SDK resumes a broken stream only twice). Connections that
 * arrive meanwhile are accepted and paused; `adopt` hands them, and every later one, to the HTTP server.
 */
export interface HeldPort {
  address(): AddressInfo;
  /** From now on `server` serves every connection, the ones held so far first. */
  adopt(server: HttpServer): void;
  /** Stops accepting (the connections already handed over are the HTTP server's to close). */
  close(): Promise<void>;
}

export async function holdPort(host: string, port: number): Promise<HeldPort> {
  const held: Socket[] = [];
  let adopted: HttpServer | undefined;
  const hand = (server: HttpServer, socket: Socket) => {
    server.emit('connection', socket);
    socket.resume();
  };
  const net: Server = createServer({ pauseOnConnect: true }, (socket) => {
    if (adopted) hand(adopted, socket);
    else {
      held.push(socket);
      socket.once('close', () => {
        const at = held.indexOf(socket);
        if (at >= 0) held.splice(at, 1);
      });
    }
  });
  await listen(net, host, port);
  return {
    address: () => net.address() as AddressInfo,
    adopt(server) {
      adopted = server;
      // the HTTP server keeps its connections (timeouts, closeIdleConnections) from its 'listening' event on
      server.emit('listening');
      for (const socket of held.splice(0)) hand(server, socket);
    },
    close: () => new Promise((resolve) => net.close(() => resolve())),
  };
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(
          new StartupError(
            `port ${port} on ${host} is in use (another aiti-bridge? try http://${host}:${port}/bridge/health); stop it or pick another port with --port or AITI_BRIDGE_PORT`,
          ),
        );
      } else if (error.code === 'EACCES') {
        reject(new StartupError(`not allowed to listen on ${host}:${port}; pick a port above 1024 with --port`));
      } else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') {
        reject(new StartupError(`cannot listen on host "${host}": no such local address; use --host 127.0.0.1`));
      } else reject(error);
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { Server as TlsServer } from 'node:tls';
import type { LimitCounters } from '../limits.js';

/** how often the open connections are looked at (one timer for all of them) */
const CHECK_EVERY_MS = 1000;

/**
 * Cuts off clients that stop reading and caps connections per client (README "Security" → limits). A response that
 * has bytes waiting for the socket and makes no write progress for `limits.stalledWriteMs` is closed, so a client
 * that asked for the page script and never reads it does not hold a socket and its buffers for ever; a client
 * address past `limits.connectionsPerClient` open connections has its new ones closed at once. Both count in
 * bridge_status (`slowReaders`, `connectionsPerClient`). Every listener is watched (local, Unix socket, remote), and a
 * client's connections count across all of them.
 */
export function guardConnections(counters: LimitCounters): { watch(server: Server): void; close(): void } {
  const { stalledWriteMs, connectionsPerClient } = counters.limits;
  const open = new Map<Socket, { written: number; stalledSince?: number }>();
  const perClient = new Map<string, number>();
  counters.current('connectionsPerClient', () => Math.max(0, ...perClient.values()));
  const admit = (socket: Socket) => {
    const client = socket.remoteAddress ?? '?';
    const count = (perClient.get(client) ?? 0) + 1;
    if (count > connectionsPerClient) {
      counters.refused('connectionsPerClient');
      socket.destroy();
      return;
    }
    perClient.set(client, count);
    open.set(socket, { written: 0 });
    socket.once('close', () => {
      open.delete(socket);
      const left = (perClient.get(client) ?? 1) - 1;
      if (left > 0) perClient.set(client, left);
      else perClient.delete(client);
    });
  };
  const timer = setInterval(
    () => {
      const now = performance.now();
      for (const [socket, seen] of open) {
        if (counters.isStream(socket) || socket.writableLength === 0 || socket.bytesWritten !== seen.written) {
          seen.written = socket.bytesWritten;
          seen.stalledSince = undefined;
          continue;
        }
        seen.stalledSince ??= now;
        if (now - seen.stalledSince >= stalledWriteMs) {
          counters.refused('slowReaders');
          socket.destroy();
        }
      }
    },
    Math.min(CHECK_EVERY_MS, stalledWriteMs),
  );
  timer.unref();
  return {
    // a TLS listener's requests write on the TLS socket (the one an SSE stream marks), not on the TCP one below it
    watch: (server) => server.on(server instanceof TlsServer ? 'secureConnection' : 'connection', admit),
    close: () => clearInterval(timer),
  };
}

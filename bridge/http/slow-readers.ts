import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { Server as TlsServer } from 'node:tls';
import type { LimitCounters } from '../limits.js';

/** how often the open connections are looked at (one timer for all of them) */
const CHECK_EVERY_MS = 1000;

/**
 * Which listener a connection came in on. `local` (TCP loopback) and `socket` (the Unix socket) are this machine's
 * programs; `remote` is the remote listener, where every tunnel delivers from 127.0.0.1, so its connections are
 * counted apart and never take a place of the desk's or a local agent's.
 */
export type ListenerKind = 'local' | 'socket' | 'remote';

interface Seen {
  /** bytes the kernel has taken (written minus still waiting in Node) at the last look */
  flushed: number;
  stalledSince?: number;
}

/**
 * Cuts off clients that stop reading and keeps each party's connections to a budget of its own (README "Security" →
 * limits).
 *
 * - A connection with bytes waiting in Node and no progress into the kernel for `limits.stalledWriteMs` is closed
 *   (`slowReaders`): a response nobody reads, and an event stream (the window's, an agent's) whose reader stopped —
 *   progress is what the kernel took, so a stream's pings do not count as progress while nobody reads them.
 * - A client address past `limits.connectionsPerClient` on the local listener and the Unix socket has its new
 *   connections closed at once (`connectionsPerClient`).
 * - The remote listener has its own budgets: `remoteAnonymousConnections` for connections that have not yet shown a
 *   credential (anyone who reaches a tunnel: idle sockets, the pairing page; past it the oldest of them gives way to
 *   the newcomer), and `remoteConnections` for all of its connections (past it new ones are closed at once); both
 *   count as `remoteConnections` refusals. A connection counts as credentialed
 *   once one of its requests carried a device session or an agent token (LimitCounters.credentialed).
 */
export function guardConnections(counters: LimitCounters): {
  watch(server: Server, kind?: ListenerKind): void;
  close(): void;
} {
  const { stalledWriteMs, connectionsPerClient, remoteAnonymousConnections, remoteConnections } = counters.limits;
  const open = new Map<Socket, Seen>();
  const perClient = new Map<string, number>();
  const remote = { all: 0, anonymous: new Set<Socket>() };
  counters.current('connectionsPerClient', () => Math.max(0, ...perClient.values()));
  counters.current('remoteConnections', () => remote.all);
  counters.onCredentialed((socket) => remote.anonymous.delete(socket));

  const track = (socket: Socket, gone: () => void) => {
    open.set(socket, { flushed: flushedOf(socket) });
    socket.once('close', () => {
      open.delete(socket);
      gone();
    });
  };

  const admitLocal = (socket: Socket) => {
    const client = socket.remoteAddress ?? '?';
    const count = (perClient.get(client) ?? 0) + 1;
    if (count > connectionsPerClient) {
      counters.refused('connectionsPerClient');
      socket.destroy();
      return;
    }
    perClient.set(client, count);
    track(socket, () => {
      const left = (perClient.get(client) ?? 1) - 1;
      if (left > 0) perClient.set(client, left);
      else perClient.delete(client);
    });
  };

  const admitRemote = (socket: Socket) => {
    if (remote.all >= remoteConnections) {
      counters.refused('remoteConnections');
      socket.destroy();
      return;
    }
    // the anonymous places are full: the oldest anonymous connection gives way, so sockets held open and silent
    // cannot keep a phone that is about to sign in out
    if (remote.anonymous.size >= remoteAnonymousConnections) {
      const oldest = remote.anonymous.values().next().value;
      counters.refused('remoteConnections');
      if (oldest) {
        remote.anonymous.delete(oldest);
        oldest.destroy();
      }
    }
    remote.all++;
    remote.anonymous.add(socket);
    counters.watchCredential(socket);
    track(socket, () => {
      remote.all--;
      remote.anonymous.delete(socket);
    });
  };

  const timer = setInterval(
    () => {
      const now = performance.now();
      for (const [socket, seen] of open) {
        const flushed = flushedOf(socket);
        if (socket.writableLength === 0 || flushed !== seen.flushed) {
          seen.flushed = flushed;
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
    watch: (server, kind = 'local') =>
      server.on(
        server instanceof TlsServer ? 'secureConnection' : 'connection',
        kind === 'remote' ? admitRemote : admitLocal,
      ),
    close: () => clearInterval(timer),
  };
}

/** Bytes the kernel has taken from this socket: `bytesWritten` counts what still waits in Node too. */
function flushedOf(socket: Socket): number {
  return socket.bytesWritten - socket.writableLength;
}

import type { Server, ServerResponse } from 'node:http';

/** How long a stopping bridge waits for the answers it still owes (cancelled asks, page results). */
export const SHUTDOWN_GRACE_MS = 3_000;

/**
 * Counts the answers the server still owes: every request but the GETs (GET streams — SSE, the MCP stream —
 * never end by themselves). A stopping bridge first ends every open ask as `cancelled`; the tool calls that
 * waited on them then answer over their POST (JSON or SSE). `settled` resolves once those are written, so the
 * agents get a result before the sockets close.
 */
export function trackAnswers(server: Server): { settled(timeoutMs?: number): Promise<void> } {
  const owed = new Set<ServerResponse>();
  let wake: (() => void) | undefined;
  server.on('request', (req, res: ServerResponse) => {
    if (req.method === 'GET' || req.method === 'HEAD') return;
    owed.add(res);
    res.once('close', () => {
      owed.delete(res);
      if (!owed.size) wake?.();
    });
  });
  return {
    settled: (timeoutMs = SHUTDOWN_GRACE_MS) =>
      new Promise<void>((resolve) => {
        if (!owed.size) return resolve();
        const timer = setTimeout(done, timeoutMs);
        timer.unref();
        function done() {
          clearTimeout(timer);
          wake = undefined;
          resolve();
        }
        wake = done;
      }),
  };
}

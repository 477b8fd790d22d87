import { randomUUID } from 'node:crypto';

/**
 * The flood's attacker, in a process of its own as a browser tab or another local program would be: its own
 * CPU then never slows the agent and the page the benchmark measures. Sends claims from one Origin, `concurrency`
 * in flight and each sent as soon as the last one's answer came, until `count` were answered or `durationMs`
 * passed, and reports over IPC what it got back.
 */
export interface AttackOrder {
  url: string;
  origin: string;
  count: number;
  concurrency: number;
  durationMs: number;
}

export interface AttackReport {
  /** answers by HTTP status */
  answered: Record<string, number>;
  seconds: number;
}

async function attack(order: AttackOrder): Promise<AttackReport> {
  const answered: Record<string, number> = {};
  let sent = 0;
  const started = performance.now();
  const deadline = started + order.durationMs;
  await Promise.all(
    Array.from({ length: order.concurrency }, async () => {
      while (sent < order.count && performance.now() < deadline) {
        sent++;
        const res = await fetch(`${order.url}/bridge/claim`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain', origin: order.origin },
          body: JSON.stringify({ instanceId: randomUUID(), pageKey: 'k', url: `${order.origin}/` }),
        });
        await res.arrayBuffer();
        answered[res.status] = (answered[res.status] ?? 0) + 1;
      }
    }),
  );
  return { answered, seconds: (performance.now() - started) / 1000 };
}

// loaded (tsx compiled this file): the parent starts the clock only now, so start-up is not counted as the flood
process.send?.('ready');
process.once('message', (order: AttackOrder) => {
  void attack(order).then((report) => {
    process.send?.(report);
    process.disconnect?.();
  });
});

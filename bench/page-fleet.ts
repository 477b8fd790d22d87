import { Worker } from 'node:worker_threads';

/**
 * Many light pages in a worker thread of their own: with hundreds of pages and dozens of agents, the pages must
 * not share one event loop with the agents' clients, or the benchmark times its own queue (browser tabs run in
 * processes of their own too).
 */
export class PageFleet {
  private constructor(
    private readonly worker: Worker,
    readonly pageIds: string[],
  ) {}

  static start(bridgeUrl: string, count: number): Promise<PageFleet> {
    // the worker loads TypeScript as the benchmark does (tsx), whatever Node passed on to it
    const worker = new Worker(
      `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(new URL('./page-fleet-worker.ts', import.meta.url).href)}); })`,
      { eval: true, workerData: { bridgeUrl, count } },
    );
    return new Promise((resolve, reject) => {
      worker.once('error', reject);
      worker.once('message', (message: { pageIds: string[] }) => resolve(new PageFleet(worker, message.pageIds)));
    });
  }

  /** Starts counting how busy the pages' event loop is. */
  markBusy(): void {
    this.worker.postMessage('elu-start');
  }

  /** The share of time the pages' event loop was busy since markBusy (0..1). */
  busy(): Promise<number> {
    return new Promise((resolve) => {
      this.worker.once('message', (message: { elu: number }) => resolve(message.elu));
      this.worker.postMessage('elu');
    });
  }

  async close(): Promise<void> {
    this.worker.postMessage('close');
    await this.worker.terminate();
  }
}

import { parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { LightPage } from './light-page.js';

/** The worker side of PageFleet: connects the pages, reports their ids, and answers ELU questions. */
const { bridgeUrl, count } = workerData as { bridgeUrl: string; count: number };
const pages: LightPage[] = [];
for (let from = 0; from < count; from += 50) {
  pages.push(
    ...(await Promise.all(
      Array.from({ length: Math.min(50, count - from) }, (_, k) => LightPage.connect(bridgeUrl, from + k)),
    )),
  );
}
let mark = performance.eventLoopUtilization();
parentPort?.on('message', (message: string) => {
  if (message === 'elu-start') mark = performance.eventLoopUtilization();
  if (message === 'elu') parentPort?.postMessage({ elu: performance.eventLoopUtilization(mark).utilization });
  if (message === 'close') {
    for (const page of pages) page.close();
    parentPort?.close();
  }
});
parentPort?.postMessage({ pageIds: pages.map((p) => p.pageId) });

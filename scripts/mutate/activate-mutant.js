// Setup file of `npm run mutate` (scripts/mutate/vitest.config.js). Stryker's vitest runner adds its own setup
// first; this one runs after it, in every test file, before the file's own modules load.
//
// 0. It makes this test file load the project's modules afresh. The run shares one worker among the test files of
//    a mutant (scripts/mutate/vitest.config.js, `isolate: false`), so the packages they use (koa, the MCP SDK,
//    zod, Playwright) load once per mutant instead of once per file; the project's own modules (the mutated ones,
//    the test helpers with their hooks) are evaluated again for each file, as in an isolated run.
// 1. It activates the mutant now. Stryker 9.6 activates a mutant it may filter tests for in a `beforeAll`, after
//    the test file imported the modules, so a mutant in code that runs at load (a regex, a Set of names) never
//    runs and survives (stryker-js#6144). Each test file loads the modules afresh, so activating here reaches it.
// 2. It puts the mutant in the environment, so a bridge the test spawns (dist/bridge, built from the mutated
//    sources by scripts/mutate/build-sandbox.js) runs it too.
// 3. For the page agent's groups, it hands the tests' browser the page bundle with the mutant named first
//    (test/helpers/browser.ts serves it in place of the bridge's dist/page/page.js): each test runner serves its
//    own mutant, so the group's runners run side by side in one sandbox. In the first run the bundle reports what
//    the pages' code reached, so Stryker knows which tests reach each mutant.
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { afterEach, inject, vi } from 'vitest';

vi.resetModules();

const ns = (globalThis.__stryker__ ??= {});
const active = inject('mode') === 'mutant' ? String(inject('activeMutant')) : undefined;

if (active === undefined) delete process.env.__STRYKER_ACTIVE_MUTANT__;
else {
  ns.activeMutant = active;
  process.env.__STRYKER_ACTIVE_MUTANT__ = active;
}

const INSTRUMENTED_PAGE = 'dist/page/page.instrumented.js';
if (existsSync(INSTRUMENTED_PAGE)) {
  const prefix =
    active === undefined
      ? await reportPageCoverage()
      : `globalThis.__stryker__={activeMutant:${JSON.stringify(active)}};`;
  globalThis.__aitiPageBundle = prefix + '\n' + readFileSync(INSTRUMENTED_PAGE, 'utf8');
}

/**
 * Starts a collector for the mutants the pages' code reaches, and returns the bundle prefix that reports them.
 * A page has no test of its own, so what it reports counts for the test running when it arrives (Stryker sets
 * `currentTestId` around each test); after each test the collector waits until the pages have gone quiet.
 */
async function reportPageCoverage() {
  let lastReport = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      lastReport = Date.now();
      res.writeHead(204, { 'access-control-allow-origin': '*' }).end();
      let hits;
      try {
        hits = JSON.parse(body);
      } catch {
        return;
      }
      const coverage = (ns.mutantCoverage ??= { static: {}, perTest: {} });
      const into = ns.currentTestId ? (coverage.perTest[ns.currentTestId] ??= {}) : coverage.static;
      for (const [id, count] of Object.entries(hits)) into[id] = (into[id] ?? 0) + Number(count);
    });
  });
  await new Promise((listening) => server.listen(0, '127.0.0.1', () => listening(undefined)));
  server.unref();
  afterEach(async () => {
    const started = Date.now();
    while (Date.now() - lastReport < 300 && Date.now() - started < 2000)
      await new Promise((tick) => setTimeout(tick, 50));
  });
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
  // every 100 ms, when the page leaves, and before the page sends the bridge anything (a test often ends on the
  // page's answer, and its cleanup closes the page before the next tick: what the answer's code reached would
  // be lost, and a mutant there would run without the test that kills it), the mutants whose hit count grew
  return `(()=>{const ns=globalThis.__stryker__={};const sent={};const post=fetch.bind(globalThis);const report=()=>{const hits=ns.mutantCoverage&&ns.mutantCoverage.static;if(!hits)return;const grown={};let any=false;for(const id in hits)if(hits[id]!==sent[id]){grown[id]=hits[id]-(sent[id]||0);sent[id]=hits[id];any=true}if(any)post(${JSON.stringify(url)},{method:'POST',mode:'no-cors',keepalive:true,body:JSON.stringify(grown)}).catch(()=>{})};setInterval(report,100);addEventListener('pagehide',report);const send=WebSocket.prototype.send;WebSocket.prototype.send=function(data){report();return send.call(this,data)};globalThis.fetch=function(...args){report();return post(...args)}})();`;
}

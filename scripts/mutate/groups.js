// What `npm run mutate` measures (docs/TESTING.md): the code that decides who may do what, what is durable, what
// the human answered and what the page did. One group is one Stryker run: the modules it mutates and the test
// files that are about them (not the whole suite: every HTTP test passes through the guards, and running 130 files
// per mutant would take days on two cores).

/**
 * @typedef {object} Module
 * @property {string} file the source file, from the repository root
 * @property {string[]} [only] mutate only these functions or methods of it (found by name, so lines may move)
 * @property {string[]} [except] mutate all of it but these functions (another group's tests are about them)
 *
 * @typedef {object} Group
 * @property {string} what what the group guards, for the report
 * @property {Module[]} modules
 * @property {string[]} tests the test files run against its mutants
 * @property {boolean} [browser] its modules run in the page: the page bundle is built from the mutated sources
 *   and told which mutant is active (scripts/mutate/activate-mutant.js)
 * @property {number} [testTimeoutMS] the mutation run's time limit per test (and at least per hook) for this
 *   group, when its passing tests need more than the default 15 s (scripts/mutate/vitest.config.js)
 * @property {number} [timeoutMS] Stryker's `timeoutMS` for this group, when its runs need more than the default
 *   30 s on top of 1.5 × its tests' time (scripts/mutate/stryker.config.mjs)
 * @property {number} [runners] its test runners side by side (default 2). A runner whose tests mostly wait (for a
 *   socket, a timer, a deadline a mutant makes them reach) uses a fraction of a core, so such a group gets more;
 *   a group whose tests drive Chromium or render the window keeps two (docs/TESTING.md, "How long it takes")
 * @property {number} [minutes] about how long its run takes from scratch here, beside the others (docs/TESTING.md):
 *   `npm run mutate` starts the longest groups first, so the short ones run beside them instead of after them
 */

/** @type {Record<string, Group>} */
export const GROUPS = {
  guards: {
    what: 'who may reach which route: the peer, Host, Origin and token checks, the trust zones',
    minutes: 8,
    runners: 4,
    modules: [
      { file: 'bridge/http/guard.ts' },
      { file: 'bridge/http/peer.ts' },
      { file: 'bridge/http/zones.ts' },
      { file: 'bridge/loopback.ts' },
    ],
    tests: [
      'test/foundation/security.test.ts',
      'test/foundation/zones.test.ts',
      'test/security/proxy-headers.test.ts',
      'test/security/lan-peer.test.ts',
      'test/security/low-findings.test.ts',
      'test/security/unix-socket.test.ts',
      'test/security/guard-edges.test.ts',
      'test/security/agent-identity.test.ts',
      // the remote listener's guards set the window party a device is (http/zones.ts partyOf)
      'test/remote/remote-listener.test.ts',
    ],
  },
  pages: {
    what: "which page may speak: page authorization, the result socket, open_file's checks",
    minutes: 17,
    runners: 6,
    modules: [
      { file: 'bridge/pages/registry.ts', only: ['authorize', 'checkSecret', 'checkLegacy', 'admit'] },
      { file: 'bridge/pages/result-socket-routes.ts' },
      { file: 'bridge/pages/open-file.ts' },
    ],
    tests: [
      'test/foundation/pages.test.ts',
      'test/security/guard-layers.test.ts',
      'test/security/result-socket.test.ts',
      'test/security/result-socket-life.test.ts',
      'test/security/page-stream-secret.test.ts',
      'test/security/open-file-opener.test.ts',
      'test/security/operable-page.test.ts',
      'test/security/held-page-inbox.test.ts',
      'test/security/low-findings.test.ts',
      'test/page/open-file.test.ts',
      'test/security/open-file-editor.test.ts',
    ],
  },
  'page-gate': {
    what: 'which page commands wait for the human, and what "allow for this page" allows',
    minutes: 3,
    runners: 4,
    modules: [{ file: 'bridge/asks/page-gate.ts' }],
    tests: ['test/asks/page-gate.test.ts', 'test/asks/page-gate-edges.test.ts', 'test/security/guard-layers.test.ts'],
  },
  agents: {
    what: 'who may speak for an agent id and read its inbox',
    minutes: 2,
    runners: 4,
    modules: [{ file: 'bridge/agents/identity.ts' }, { file: 'bridge/agents/claims.ts' }],
    tests: [
      'test/security/agent-identity.test.ts',
      'test/security/agent-claims.test.ts',
      'test/remote/remote-listener.test.ts',
      'test/security/guard-layers.test.ts',
      'test/inbox/agent-inbox.test.ts',
    ],
  },
  journal: {
    what: 'what is durable: the journal, its scan and the replay after a restart',
    minutes: 4,
    runners: 3,
    modules: [
      // the write path: what a push waits for before it is acknowledged, and what a failed batch leaves
      { file: 'bridge/journal/writer.ts', only: ['append', 'fileFor', 'write', 'flush', 'commit', 'rollBack'] },
      { file: 'bridge/inbox/inbox.ts', only: ['replay'] },
    ],
    tests: [
      'test/inbox/journal.test.ts',
      'test/inbox/disk-faults.test.ts',
      'test/inbox/journal-batches.test.ts',
      'test/inbox/replay-status.test.ts',
      'test/inbox/replay-asks.test.ts',
      'test/inbox/replay.test.ts',
      'test/inbox/rename.test.ts',
      'test/reliability/replay-order.test.ts',
      'test/security/agent-id-paths.test.ts',
    ],
  },
  asks: {
    what: 'what the human answered: asks, their countdowns, the wait and its progress',
    minutes: 7,
    runners: 6,
    modules: [
      // how an answer, a pause, a time-out or a cancel ends an ask, and when it is on disk
      { file: 'bridge/asks/asks.ts', only: ['act', 'decide', 'moveCountdown', 'finish', 'expire'] },
      { file: 'bridge/asks/countdown.ts' },
      { file: 'bridge/asks/wait.ts' },
    ],
    tests: [
      'test/asks/countdown.test.ts',
      'test/asks/progress.test.ts',
      'test/asks/clock-step.test.ts',
      'test/asks/durable-answer.test.ts',
      'test/asks/ending.test.ts',
      'test/asks/tools.test.ts',
      'test/asks/window.test.ts',
      'test/asks/page-asks.test.ts',
      'test/asks/page-gate.test.ts',
      // "allow once" is not remembered: what act's remember decides
      'test/asks/page-gate-edges.test.ts',
      // an ask's pause on disk, as a restart reads it back
      'test/inbox/replay-asks.test.ts',
    ],
  },
  window: {
    what: "the human's keys in the window: which key answers what, and when",
    minutes: 18,
    // the key handling of the cards, not their markup (a class name or a label changes no answer)
    modules: [
      { file: 'renderer/src/keys.ts' },
      { file: 'renderer/src/cards/number-entry.ts' },
      {
        file: 'renderer/src/cards/AskCard.tsx',
        only: ['useSettled', 'onKey', 'typeNumber', 'finishNumber', 'inSight', 'picking', 'pickNumbers'],
      },
      { file: 'renderer/src/cards/Cards.tsx', only: ['onKey'] },
    ],
    tests: ['test/window/cards.test.tsx', 'test/window/card-keys.test.tsx'],
  },
  // The page agent's modules, in two groups run side by side: each mutant runs only the tests of its own group that
  // reached it, and every page result passes through cap.ts and names elements by ref, so with one group a
  // surviving mutant there ran every page test of the group, form_fill's included.
  'page-refs': {
    what: 'what a page result holds: element refs and the result cap',
    browser: true,
    minutes: 15,
    // each test drives a real Chromium: the slowest pass in ~11 s on this busy machine
    testTimeoutMS: 30_000,
    // isRef is form_fill's question (is this key a ref?): its group's tests ask it
    modules: [
      { file: 'bridge/page-agent/dom/refs.ts', except: ['isRef'] },
      { file: 'bridge/page-agent/commands/cap.ts' },
    ],
    tests: [
      'test/page/commands.test.ts',
      'test/page/more-commands.test.ts',
      // in files of their own so a rerun reuses what the files above killed (Stryker's incremental mode
      // treats every test of a changed file as changed)
      'test/page/result-cap.test.ts',
      'test/page/refs.test.ts',
      'test/page/refs-edges.test.ts',
    ],
  },
  'form-fill': {
    what: 'what form_fill did: the fields it found and filled, and its read-back of what the app kept',
    browser: true,
    minutes: 35,
    testTimeoutMS: 30_000,
    modules: [
      { file: 'bridge/page-agent/ui/fill.ts' },
      { file: 'bridge/page-agent/ui/readback.ts' },
      { file: 'bridge/page-agent/dom/refs.ts', only: ['isRef'] },
    ],
    tests: [
      'test/page/form-fill.test.ts',
      'test/page/form-fill-kept.test.ts',
      'test/page/form-fill-rewrites.test.ts',
      'test/page/form-fill-finds.test.ts',
      'test/page/form-fill-edges.test.ts',
    ],
  },
};

// The order of a mutant's test files in `npm run mutate` (scripts/mutate/vitest.config.js). Stryker's runner
// stops at the first failing test, so the sooner the test that kills a mutant runs, the sooner the next mutant
// starts. A test runner runs mutant after mutant with one sequencer, which keeps what each run said of its files:
// the file that killed the previous mutant runs first (the neighbouring mutant's killer often kills this one too),
// then the files by their time per kill, the lowest first, so a slow file that often kills may go before a quick
// one that seldom does. A file not yet seen counts as free, so it runs early once and is then known.
// (vitest's own order runs the longest first, and its results cache cannot tell the quickest: a file skipped
// because a file before it failed is recorded there as taking 0 ms.)
import { relative } from 'node:path';
import { BaseSequencer } from 'vitest/node';

/**
 * @typedef {object} Seen what this test runner saw of one file
 * @property {number} ms how long its tests took the last time they ran
 * @property {number} runs how many runs it ran in
 * @property {number} kills in how many of them it failed
 * @property {unknown} [result] vitest's cache entry it was last read from (a run that ran the file replaces it)
 */

export default class FailFastSequencer extends BaseSequencer {
  /** @type {Map<string, Seen>} */
  files = new Map();
  /** @type {string[]} the files of the previous run, by their key in vitest's results cache */
  previous = [];
  /** @type {string | undefined} the file that failed in the previous run */
  killer;

  /** @param {import('vitest/node').TestSpecification[]} specs */
  async sort(specs) {
    this.learn();
    // the key vitest 4 keeps a file's last result under (ResultsCache.updateResults)
    const keyOf = (/** @type {import('vitest/node').TestSpecification} */ spec) =>
      `${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId)}`;
    this.previous = specs.map(keyOf);
    // its time over the chance that it kills, that chance counted as (kills + 1) / (runs + 2) so that one run
    // decides nothing for good
    const perKill = (/** @type {string} */ key) => {
      const file = this.files.get(key);
      return file ? (file.ms * (file.runs + 2)) / (file.kills + 1) : 0;
    };
    return [...specs].sort((a, b) => {
      const [keyA, keyB] = [keyOf(a), keyOf(b)];
      return Number(keyB === this.killer) - Number(keyA === this.killer) || perKill(keyA) - perKill(keyB);
    });
  }

  /** Reads what the previous run said of its files: vitest's results cache has a new entry for each file it ran. */
  learn() {
    this.killer = undefined;
    for (const key of this.previous) {
      const result = this.ctx.cache.getFileTestResults(key);
      const file = this.files.get(key) ?? { ms: 0, runs: 0, kills: 0 };
      this.files.set(key, file);
      if (!result || result === file.result) continue;
      file.result = result;
      // skipped, because a file before it failed
      if (!result.failed && result.duration === 0) continue;
      file.runs += 1;
      file.ms = result.duration;
      if (result.failed) {
        file.kills += 1;
        this.killer = key;
      }
    }
  }
}

// The order of a mutant's test files in `npm run mutate` (scripts/mutate/vitest.config.js). Stryker's runner
// stops at the first failing test, so the sooner the test that kills a mutant runs, the sooner the next mutant
// starts. vitest's own order runs the files that failed last time first, then the longest: here the files that
// failed last time come first (the neighbouring mutant's killer often kills this one too), then the quickest.
import { relative } from 'node:path';
import { BaseSequencer } from 'vitest/node';

export default class FailFastSequencer extends BaseSequencer {
  /** @param {import('vitest/node').TestSpecification[]} files */
  async sort(files) {
    const { cache, config } = this.ctx;
    // the key vitest 4 keeps a file's last result under (BaseSequencer.sort)
    const last = (/** @type {import('vitest/node').TestSpecification} */ spec) =>
      cache.getFileTestResults(`${spec.project.name}:${relative(config.root, spec.moduleId)}`);
    return [...files].sort((a, b) => {
      const [lastA, lastB] = [last(a), last(b)];
      const failed = Number(Boolean(lastB?.failed)) - Number(Boolean(lastA?.failed));
      return failed || (lastA?.duration ?? 0) - (lastB?.duration ?? 0);
    });
  }
}

/**
 * Two test projects:
 * - `unit` (`npx vitest run --project unit`): pure files with no global set-up, so no PostgreSQL is
 *   started and no Chromium unpacked; a run takes seconds. A file belongs here when it needs neither a
 *   database, a browser, a site build nor a running service (tests/core/test-projects.test.ts checks).
 * - `integration` (`npx vitest run --project integration`): everything else, with tests/global-setup.ts.
 * `npm test` runs both; `npx vitest run tests/x.test.ts` runs one file in whichever project holds it.
 */
import { defineConfig } from 'vitest/config';

/** The unit project's files; every other test file is an integration test. */
export const UNIT_TESTS = [
  'tests/core/*.test.ts',
  'tests/deploy/runtime-dependencies.test.ts',
  'tests/insights/analyze-review.test.ts',
  'tests/insights/aspect-config.test.ts',
  'tests/insights/compute-insights.test.ts',
  'tests/insights/corpus-targets.test.ts',
  'tests/insights/demo-aspects.test.ts',
  'tests/insights/eval-targets.test.ts',
  'tests/import/import-formats.test.ts',
  'tests/import/values.test.ts',
  'tests/media/encode-photos.test.ts',
  'tests/mcp/paging.test.ts',
  'tests/outbound/fair-slots.test.ts',
  'tests/mcp/rating-summary.test.ts',
  'tests/scripts/analyze-in-threads.test.ts',
  'tests/scripts/spanish-reviews.test.ts',
  'tests/sidecar/http-errors.test.ts',
  'tests/sidecar/logs.test.ts',
  'tests/sidecar/thread-priority.test.ts',
  'tests/site/format.test.ts',
  'tests/site/stars.test.ts',
  'tests/websub/admission.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Each test process runs file after file with the modules it loaded kept, instead of a new process
    // loading them again for every file: 758 s of CPU instead of 853 s for the suite, 432 s instead of 479 s
    // (docs/development.md "How long"). So a test file leaves the process as it found it: it puts back what
    // it changes in process.env, the umask or a global, and closes what it opens (a shuffled order passes:
    // `npm test -- --sequence.shuffle.files`).
    isolate: false,
    fileParallelism: true,
    // Three test processes on two cores keep both busier (90 % of the run against 82 % with two;
    // docs/development.md "How long").
    maxWorkers: 3,
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT_TESTS } },
      {
        extends: true,
        test: { name: 'integration', include: ['tests/**/*.test.ts'], exclude: UNIT_TESTS, globalSetup: ['tests/global-setup.ts'] },
      },
    ],
  },
});

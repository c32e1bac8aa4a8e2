import { defineConfig } from 'vitest/config';
import type { TestProjectInlineConfiguration } from 'vitest/config';

// One vitest run covers every workspace. Unit tests live next to the code; cross-package tests in tests/.
// Four groups (decisions 0870, 0979, 1167). `npx vitest run` runs them one after the other; `npm test` runs the
// first two, then the last two side by side in two vitest processes (decision 1179: both mostly wait, and a timed
// file never runs beside the first two). Files that share nothing (each opens its
// own SQLite file or PostgreSQL database) two at a time, in workers that keep their imported modules from one
// file to the next (importing the API app once a worker, not once a file); the few of those that rely on
// module state of their own (an import's side effect on globals; see OWN_MODULES) two at a time with fresh
// modules each; the browser tests that only poll (the office app's, and the floor's and boards' in POLLED_E2E)
// two at a time (each boots its own product on free ports); then the ones whose timing matters (real SHDR and
// MQTT sockets, deadlines on live tiles and tablets, killed servers, the multi-host lab) one at a time, so two of
// them never compete for the cores (decision 1173 moved the files that measure no time out of this last group).
// The browser and timed groups keep their worker's modules too (decision 1167): a fresh process per file cost
// 2-3 s of start and imports each, 134 s of the timed group's 572 s.
const OFFICE_E2E = ['tests/e2e/office-*.test.ts'];
/**
 * Browser tests of the floor app and the boards under tests/e2e that, like the office ones, only poll with long
 * timeouts for what the screen or the database should show: no deadline of their own (a tile within 10 s, a
 * tablet 3 s after activation, a countdown), no killed server, no network namespace. Their tablets go offline in
 * their own browser context, not on the machine. Two at a time with the office browser tests (decision 1173).
 */
const POLLED_E2E = [
  'tests/e2e/demo-live.test.ts',
  // It waits mostly on the demo's real downtime periods. Decision 1195 ran it with the timed files so that both
  // groups ended together; since decision 1262 the timed group is the longer one by a minute, so it is back here.
  'tests/e2e/floor-conflict.test.ts',
  'tests/e2e/floor-dispatch.test.ts',
  'tests/e2e/floor-flags.test.ts',
  'tests/e2e/floor-manual.test.ts',
  'tests/e2e/floor-offline.test.ts',
  'tests/e2e/remaining-screens.test.ts',
  'tests/e2e/tv-board.test.ts',
  'tests/e2e/two-api-processes.test.ts',
];
/**
 * Ingest files that open no socket and start no timer: parsers, the pipeline, property tests of the push and
 * MQTT payloads, the demo's scripts, and derived-record and rollup writes on a simulated clock. They run with
 * the isolated group's files (decision 1173). So do the worker's files on a simulated clock whose only timer is
 * the inbox read, which they poll for with 10 s timeouts, and the replay CLI at full speed (decision 1195).
 */
const INGEST_UNTIMED = [
  'services/ingest/src/demo/demo-history.test.ts',
  'services/ingest/src/demo/demo-script.test.ts',
  'services/ingest/src/replay/replay-cli.test.ts',
  'services/ingest/src/sources/devices/devices.test.ts',
  'services/ingest/src/sources/gateway/push.test.ts',
  'services/ingest/src/sources/mqtt/mqtt-payload.test.ts',
  'services/ingest/src/sources/shdr/shdr.test.ts',
  'services/ingest/src/worker/batch-statements.test.ts',
  'services/ingest/src/worker/derived-memory.test.ts',
  'services/ingest/src/worker/derived-replace.test.ts',
  'services/ingest/src/worker/derived-states.test.ts',
  'services/ingest/src/worker/late-order.test.ts',
  'services/ingest/src/worker/late-retention.test.ts',
  'services/ingest/src/worker/late-tenancy.test.ts',
  'services/ingest/src/worker/log.test.ts',
  'services/ingest/src/worker/pipeline-availability.test.ts',
  'services/ingest/src/worker/pipeline.test.ts',
  'services/ingest/src/worker/rebuild-setup.test.ts',
  'services/ingest/src/worker/restart-setup.test.ts',
  'services/ingest/src/worker/rollup-gaps.test.ts',
  'services/ingest/src/worker/rollup-manual.test.ts',
  'services/ingest/src/worker/tenancy-keys.test.ts',
];
const SERIAL = ['services/ingest/src/**/*.test.ts', 'tests/**/*.test.ts'];
/** The security regressions (issue 26) are route tests on fresh databases: they share nothing, so run two at a time. */
const SECURITY = ['tests/security/**/*.test.ts'];
/**
 * Files that need modules of their own: `fake-indexeddb/auto` sets globals once per import. (health.test.ts
 * left this list: the headers it lost beside other files were static.ts's, decisions 0979 and 0993.)
 */
const OWN_MODULES = [
  'apps/floor-pwa/src/offline/outbox.test.ts',
  'apps/floor-pwa/src/offline/refdata.test.ts',
];
/**
 * Files under the serial globs that measure no time and open no socket (replays at full speed against the
 * oracle, property tests through the API harness, the replay on a simulated clock): two at a time, with fresh
 * modules as in the serial group (decision 1137).
 */
const UNTIMED = [
  'tests/replay-oracle.test.ts',
  'tests/properties/**/*.test.ts',
  'services/ingest/src/replay/replay.test.ts',
];

const group = (
  name: string,
  order: number,
  maxWorkers: number,
  include: string[],
  exclude: string[] = [],
  isolate = true,
): TestProjectInlineConfiguration => ({
  extends: true,
  test: {
    name,
    include,
    exclude: ['**/node_modules/**', '**/dist/**', ...exclude],
    maxWorkers,
    isolate,
    // A worker that keeps its modules keeps its spare test databases for its next file (decision 1135).
    env: isolate ? {} : { TAKT_TEST_KEEP_SPARE_DBS: '1' },
    sequence: { groupOrder: order },
  },
});

export default defineConfig({
  test: {
    testTimeout: 30_000,
    setupFiles: ['./vitest.setup.ts'],
    globalSetup: ['./packages/db/src/testing-global-setup.ts'],
    hookTimeout: 120_000,
    pool: 'forks',
    projects: [
      group(
        'isolated',
        0,
        2,
        [
          'packages/*/src/**/*.test.ts',
          'packages/*/src/**/*.test.tsx',
          // Every service but ingest, whose files are serial unless listed in INGEST_UNTIMED.
          'services/!(ingest)/src/**/*.test.ts',
          'apps/*/src/**/*.test.ts',
          'apps/*/src/**/*.test.tsx',
          ...SECURITY,
          ...INGEST_UNTIMED,
        ],
        OWN_MODULES,
        false,
      ),
      group('own-modules', 1, 2, [...OWN_MODULES, ...UNTIMED]),
      group('office-e2e', 2, 2, [...OFFICE_E2E, ...POLLED_E2E], [], false),
      group(
        'serial',
        3,
        1,
        SERIAL,
        [...OFFICE_E2E, ...POLLED_E2E, ...SECURITY, ...UNTIMED, ...INGEST_UNTIMED],
        false,
      ),
    ],
  },
});

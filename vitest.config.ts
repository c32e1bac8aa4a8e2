import { defineConfig } from 'vitest/config';
import type { TestProjectInlineConfiguration } from 'vitest/config';

// One vitest run covers every workspace. Unit tests live next to the code; cross-package tests in tests/.
// Three groups run one after the other (decision 0870): files that share nothing (each opens its own SQLite
// file or PostgreSQL database) two at a time; the office app's browser tests two at a time (each boots its
// own product on free ports); then the ones whose timing matters (real SHDR and MQTT sockets, the floor app
// going offline, killed servers, live tiles) one at a time, so they never compete for the two cores.
const OFFICE_E2E = ['tests/e2e/office-*.test.ts'];
const SERIAL = ['services/ingest/src/**/*.test.ts', 'tests/**/*.test.ts'];

const group = (
  name: string,
  order: number,
  maxWorkers: number,
  include: string[],
  exclude: string[] = [],
): TestProjectInlineConfiguration => ({
  extends: true,
  test: {
    name,
    include,
    exclude: ['**/node_modules/**', '**/dist/**', ...exclude],
    maxWorkers,
    sequence: { groupOrder: order },
  },
});

export default defineConfig({
  test: {
    testTimeout: 30_000,
    setupFiles: ['./vitest.setup.ts'],
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
          'services/*/src/**/*.test.ts',
          'apps/*/src/**/*.test.ts',
          'apps/*/src/**/*.test.tsx',
        ],
        SERIAL,
      ),
      group('office-e2e', 1, 2, OFFICE_E2E),
      group('serial', 2, 1, SERIAL, OFFICE_E2E),
    ],
  },
});

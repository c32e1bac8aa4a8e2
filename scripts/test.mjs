#!/usr/bin/env node
// `npm test`: everything, in the order that fails fastest: set-up of what the tests need, formatting, lint,
// type check, the app builds (end-to-end tests use them), then every vitest suite (unit, API on SQLite and
// PostgreSQL, ingest with real sockets, end-to-end in Chromium). Ends with one "N passed, N failed" line.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { ensureChromium, ensureMosquitto, ensurePostgres } from './ensure-services.mjs';

const step = (name, cmd, args, env = process.env) => {
  console.log(`\n=== ${name}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit', env });
  console.log(
    `=== ${name}: ${r.status === 0 ? 'ok' : 'FAILED'} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
  return r.status === 0;
};

const chromium = ensureChromium();
ensureMosquitto();
const pgUrl = await ensurePostgres(process.env.TAKT_TEST_PG_URL ?? 'postgres://root@127.0.0.1:5432/test');
const env = { ...process.env, TAKT_TEST_PG_URL: pgUrl, TAKT_CHROMIUM: chromium };

// The four checks are single-threaded tools: two at a time keep both cores busy. Each one's output is
// printed whole when it ends, so two never interleave.
const checked = (name, cmd, args) =>
  new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => {
      const took = ((Date.now() - started) / 1000).toFixed(1);
      console.log(
        `\n=== ${name}\n${out.trimEnd()}\n=== ${name}: ${code === 0 ? 'ok' : 'FAILED'} (${took} s)`,
      );
      resolve(code === 0);
    });
  });
// Each keeps what it learnt in .tmp (gitignored, never committed; decision 1136): a second run on the same
// clone checks only the files that changed. A fresh clone (CI) starts without it and checks everything.
mkdirSync('.tmp', { recursive: true });
const checks = [
  [
    'lint',
    'npx',
    [
      'eslint',
      '.',
      '--max-warnings',
      '0',
      '--cache',
      '--cache-strategy',
      'content',
      '--cache-location',
      '.tmp/eslintcache',
    ],
  ],
  [
    'typecheck',
    'npx',
    [
      'tsc',
      '-p',
      'tsconfig.json',
      '--noEmit',
      '--incremental',
      '--tsBuildInfoFile',
      '.tmp/typecheck.tsbuildinfo',
    ],
  ],
  [
    'format',
    'npx',
    ['prettier', '--check', '--log-level', 'warn', '--cache', '--cache-location', '.tmp/prettiercache', '.'],
  ],
  ['build', 'npm', ['run', 'build', '--silent']],
];
let failedChecks = 0;
const queue = [...checks];
const lane = async () => {
  for (let next = queue.shift(); next; next = queue.shift()) if (!(await checked(...next))) failedChecks++;
};
await Promise.all([lane(), lane()]);

const report = '.tmp/vitest-report.json';
const ok = step(
  'vitest',
  'npx',
  ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
  env,
);

let passed = 0;
let failed = 0;
try {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  passed = r.numPassedTests;
  failed = r.numFailedTests + (r.numTotalTestSuites > 0 ? 0 : 1);
  if (!ok && failed === 0) failed = 1; // a suite that failed to load counts as a failure
} catch {
  failed = 1;
}
failed += failedChecks;
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(ok && failedChecks === 0 && failed === 0 ? 0 : 1);

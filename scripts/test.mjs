#!/usr/bin/env node
// `npm test`: everything: set-up of what the tests need, the app builds (end-to-end tests use them), formatting,
// lint and type check beside the first vitest stage (decision 1262), then the rest of the vitest suites (unit, API
// on SQLite and PostgreSQL, ingest with real sockets, end-to-end in Chromium). Ends with one "N passed, N failed"
// line.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { ensureChromium, ensureMosquitto, ensurePostgres } from './ensure-services.mjs';

const chromium = ensureChromium();
ensureMosquitto();
const pgUrl = await ensurePostgres(process.env.TAKT_TEST_PG_URL ?? 'postgres://root@127.0.0.1:5432/test');
const env = { ...process.env, TAKT_TEST_PG_URL: pgUrl, TAKT_CHROMIUM: chromium };

// The checks are single-threaded tools. Each one's output is printed whole when it ends, so it never interleaves
// with another's. `niced`: run at a lower priority (nice 10), beside the first vitest stage (decision 1262).
const checked = (name, cmd, args, niced = false) =>
  new Promise((resolve) => {
    const started = Date.now();
    const [run, runArgs] = niced ? ['nice', ['-n', '10', cmd, ...args]] : [cmd, args];
    const child = spawn(run, runArgs, { env, stdio: ['ignore', 'pipe', 'pipe'] });
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
];
let failedChecks = 0;
// The builds first, alone: the browser tests need them, and a first-stage file may serve them.
if (!(await checked('build', 'npm', ['run', 'build', '--silent']))) failedChecks++;
// Lint, type check and format in one lane beside the first vitest stage (decision 1262): its files share nothing
// and measure no time, and they leave about a core's half idle (waiting on PostgreSQL and on their own timers), which
// the checks, at a lower priority, take. Before, the checks ran first, alone, two at a time: 60-90 s of the run.
const lane = async () => {
  for (const next of checks) if (!(await checked(...next, true))) failedChecks++;
};

// vitest in two stages (decision 1179), each project as vitest.config.ts describes it. First the files that share
// nothing, two at a time, with the checks beside them at a lower priority (decision 1262). Then the browser tests
// that only poll, two at a time, beside the timed files, one at a time, in two vitest processes: both mostly wait (on real time windows, deadlines and
// polls), so together they use about one and a half cores, and the timed files never run beside the first stage.
const vitest = (name, projects) =>
  new Promise((resolve) => {
    const report = `.tmp/vitest-${name}.json`;
    rmSync(report, { force: true });
    const args = ['vitest', 'run', ...projects.flatMap((p) => ['--project', p])];
    const started = Date.now();
    console.log(`\n=== vitest ${name} (${projects.join(', ')})`);
    const child = spawn(
      'npx',
      [...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
      { env, stdio: 'inherit' },
    );
    child.on('close', (code) => {
      let passed = 0;
      let failed = 0;
      try {
        const r = JSON.parse(readFileSync(report, 'utf8'));
        passed = r.numPassedTests;
        failed = r.numFailedTests + (r.numTotalTestSuites > 0 ? 0 : 1);
        if (code !== 0 && failed === 0) failed = 1; // a suite that failed to load counts as a failure
      } catch {
        failed = 1;
      }
      const took = ((Date.now() - started) / 1000).toFixed(1);
      console.log(
        `=== vitest ${name}: ${code === 0 ? 'ok' : 'FAILED'} (${took} s; ${passed} passed, ${failed} failed)`,
      );
      resolve({ ok: code === 0, passed, failed });
    });
  });
// Every project of vitest.config.ts runs in one stage: a project added there and not here fails the run.
const STAGED = ['isolated', 'own-modules', 'office-e2e', 'serial'];
const declared = [...readFileSync('vitest.config.ts', 'utf8').matchAll(/group\(\s*'([^']+)'/g)].map(
  (m) => m[1],
);
const unstaged = declared.filter((p) => !STAGED.includes(p));
if (unstaged.length > 0 || declared.length !== STAGED.length)
  console.log(
    `\n=== vitest: projects not staged in scripts/test.mjs: ${unstaged.join(', ') || declared.join(', ')}`,
  );
const stages = [
  (await Promise.all([vitest('shared-nothing', STAGED.slice(0, 2)), lane()]))[0],
  ...(await Promise.all([vitest('browser', [STAGED[2]]), vitest('timed', [STAGED[3]])])),
  ...(unstaged.length > 0 || declared.length !== STAGED.length ? [{ ok: false, passed: 0, failed: 1 }] : []),
];
const ok = stages.every((s) => s.ok);
const passed = stages.reduce((n, s) => n + s.passed, 0);
let failed = stages.reduce((n, s) => n + s.failed, 0);
failed += failedChecks;
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(ok && failedChecks === 0 && failed === 0 ? 0 : 1);

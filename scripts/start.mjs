#!/usr/bin/env node
// `npm start`: build both apps, then run the whole product (API, apps, ingest) on SQLite with the simulated
// demo plant. Any variable already set in the environment wins (see README "Configuration").
import { spawnSync, spawn } from 'node:child_process';

const env = { ...process.env, TAKT_DEMO: process.env.TAKT_DEMO ?? '1' };

console.log('Building the floor and office apps…');
const build = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit', env });
if (build.status !== 0) process.exit(build.status ?? 1);

const server = spawn(process.execPath, ['--import', 'tsx', 'services/api/src/main.ts'], {
  stdio: 'inherit',
  env,
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));

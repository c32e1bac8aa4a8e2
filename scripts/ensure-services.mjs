// Make sure what the tests need is on this machine: Debian's chromium and a PostgreSQL server that answers.
// Prints the PostgreSQL URL to use (the machine's own, or one this script started).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, chownSync } from 'node:fs';
import pg from 'pg';

const isRoot = process.getuid?.() === 0;
const say = (m) => console.log(`[setup] ${m}`);

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  return r.status === 0;
}

let aptUpdated = false;
function aptInstall(pkgs) {
  if (!isRoot)
    throw new Error(
      `Please install ${pkgs.join(' ')} (apt-get install -y ${pkgs.join(' ')}); this script is not root.`,
    );
  if (!aptUpdated) {
    run('apt-get', ['update', '-qq']);
    aptUpdated = true;
  }
  if (
    !run('apt-get', ['install', '-y', '-qq', ...pkgs], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    })
  ) {
    throw new Error(`apt-get install ${pkgs.join(' ')} failed`);
  }
}

export function ensureChromium() {
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  say('Debian chromium is missing: installing it');
  aptInstall(['chromium']);
  return '/usr/bin/chromium';
}

/** The MQTT tests use Debian's mosquitto: the running broker on 1883, or one they start themselves. */
export function ensureMosquitto() {
  if (existsSync('/usr/sbin/mosquitto')) return '/usr/sbin/mosquitto';
  say('Debian mosquitto is missing: installing it');
  aptInstall(['mosquitto']);
  return '/usr/sbin/mosquitto';
}

async function answers(url) {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    await c.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => {});
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitFor(url, seconds) {
  for (let i = 0; i < seconds * 2; i++) {
    if (await answers(url)) return true;
    await sleep(500);
  }
  return false;
}

function pgBinDir() {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base).sort((a, b) => Number(b) - Number(a));
  for (const v of versions) if (existsSync(`${base}/${v}/bin/initdb`)) return `${base}/${v}/bin`;
  return null;
}

/** A PostgreSQL URL that answers: the configured one, the machine's cluster started, or our own cluster. */
export async function ensurePostgres(url) {
  if (await answers(url)) return url;
  say(`no PostgreSQL answers at ${url}: starting one`);
  if (existsSync('/usr/bin/pg_lsclusters') || existsSync('/usr/bin/pg_ctlcluster')) {
    try {
      const versions = readdirSync('/etc/postgresql');
      for (const v of versions) run('pg_ctlcluster', ['--skip-systemctl-redirect', v, 'main', 'start']);
      if (await waitFor(url, 15)) return url;
    } catch {
      /* no cluster configured: fall through */
    }
  }
  let bin = pgBinDir();
  if (!bin) {
    aptInstall(['postgresql']);
    bin = pgBinDir();
    try {
      for (const v of readdirSync('/etc/postgresql'))
        run('pg_ctlcluster', ['--skip-systemctl-redirect', v, 'main', 'start']);
      if (await waitFor(url, 15)) return url;
    } catch {
      /* fall through to a private cluster */
    }
  }
  if (!bin) throw new Error('PostgreSQL could not be installed');
  // A private trust-auth cluster for the tests, owned by the postgres user (initdb refuses to run as root).
  const dir = '/tmp/takt-test-pg';
  const port = 55432;
  const own = `postgres://root@127.0.0.1:${port}/postgres`;
  if (await answers(own)) return own;
  const asPg = isRoot ? ['runuser', ['-u', 'postgres', '--']] : [null, []];
  const exec = (cmd, args) => (asPg[0] ? run(asPg[0], [...asPg[1], cmd, ...args]) : run(cmd, args));
  if (!existsSync(`${dir}/PG_VERSION`)) {
    mkdirSync(dir, { recursive: true });
    if (isRoot) {
      const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
      chownSync(dir, uid, gid);
    }
    exec(`${bin}/initdb`, ['-D', dir, '-A', 'trust', '-U', 'root']);
  }
  exec(`${bin}/pg_ctl`, [
    '-D',
    dir,
    '-l',
    `${dir}/log`,
    '-o',
    `-p ${port} -k /tmp -c listen_addresses=127.0.0.1`,
    'start',
  ]);
  if (await waitFor(own, 30)) return own;
  throw new Error('could not start a PostgreSQL server for the tests');
}

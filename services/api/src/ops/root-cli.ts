import { migrateToLatest, openDb, redactUrl } from '@takt/db';
import { parseEnv } from '../env';
import { ensureRoot, RootError } from '../provision-root';
import type { CliOutput } from './backup-cli';

// `npm run root -- <e-mail>` on the database the product is configured with (DATABASE_URL, read as the product
// reads it: env.ts). Promotes an existing user to root; with TAKT_ROOT_PASSWORD in the environment, creates the
// user when there is none (decision 1040). The password never comes from the command line, where `ps` shows it.

export const ROOT_USAGE =
  'usage: npm run root -- <e-mail>   (TAKT_ROOT_PASSWORD=… in the environment creates a missing user)';

const SAID: Record<string, string> = {
  created: 'created as a root user',
  promoted: 'promoted to root',
  exists: 'is root already',
};

/** Makes or promotes the root user; returns the exit code (0 done, 1 failed, 2 usage). */
export async function runRootCli(
  argv: readonly string[],
  environment: Record<string, string | undefined>,
  out: CliOutput = console,
  now: () => number = Date.now,
): Promise<number> {
  const email = argv[0];
  if (argv.length !== 1 || !email || email.startsWith('-') || !email.includes('@')) {
    out.error(ROOT_USAGE);
    return 2;
  }
  let env;
  try {
    env = parseEnv(environment);
  } catch (err) {
    out.error((err as Error).message);
    return 1;
  }
  const database = openDb(env.DATABASE_URL);
  try {
    await migrateToLatest(database.db);
    const result = await ensureRoot(database.db, {
      email,
      password: env.TAKT_ROOT_PASSWORD,
      now: now(),
    });
    out.log(`${email} ${SAID[result]} (${redactUrl(env.DATABASE_URL)})`);
    return 0;
  } catch (err) {
    out.error(err instanceof RootError ? err.message : ((err as Error).stack ?? String(err)));
    return 1;
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await runRootCli(process.argv.slice(2), process.env);
}

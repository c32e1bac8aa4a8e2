import { BackupError, backupDatabase, redactUrl, restoreDatabase } from '@takt/db';
import { parseEnv } from '../env';

// `npm run backup -- <file>` and `npm run restore -- <file> [--force]` on the database the product is configured
// with (DATABASE_URL, read as the product reads it: env.ts). Decision 0966.

export const BACKUP_USAGE = 'usage: npm run backup -- <file>';
export const RESTORE_USAGE = 'usage: npm run restore -- <file> [--force]';

export interface CliOutput {
  log(line: string): void;
  error(line: string): void;
}

/** Runs `backup` or `restore` with its arguments; returns the exit code (0 done, 1 failed, 2 usage). */
export async function runBackupCli(
  argv: readonly string[],
  environment: Record<string, string | undefined>,
  out: CliOutput = console,
): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== 'backup' && command !== 'restore') {
    out.error(`${BACKUP_USAGE}\n${RESTORE_USAGE}`);
    return 2;
  }
  const force = rest.includes('--force');
  const files = rest.filter((a) => a !== '--force');
  const unknown = files.filter((a) => a.startsWith('--'));
  if (files.length !== 1 || unknown.length > 0 || (command === 'backup' && force)) {
    if (unknown.length > 0) out.error(`unknown option ${unknown.join(', ')}`);
    out.error(command === 'backup' ? BACKUP_USAGE : RESTORE_USAGE);
    return 2;
  }
  const file = files[0]!;
  let url: string;
  try {
    url = parseEnv(environment).DATABASE_URL;
  } catch (err) {
    out.error((err as Error).message);
    return 1;
  }
  try {
    if (command === 'backup') {
      const { dialect, bytes } = await backupDatabase(url, file);
      out.log(
        `backed up the ${dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'} database ${redactUrl(url)} to ${file} (${bytes.toLocaleString('en-US')} bytes)`,
      );
    } else {
      const { dialect } = await restoreDatabase(url, file, { force });
      out.log(
        `restored ${file} into the ${dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'} database ${redactUrl(url)}; ` +
          'start Takt on it (migrations run at start)',
      );
    }
    return 0;
  } catch (err) {
    out.error(
      `${command} failed: ${err instanceof BackupError ? err.message : ((err as Error).stack ?? String(err))}`,
    );
    return 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await runBackupCli(process.argv.slice(2), process.env);
}

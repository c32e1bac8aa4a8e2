// vitest's global set-up (vitest.config.ts): before and after the run, the spare test databases of test
// processes that have ended are dropped (decision 1135). Without a PostgreSQL server there is nothing to drop.
import { dropEndedProcessesDatabases } from './testing';

async function sweep(): Promise<void> {
  try {
    await dropEndedProcessesDatabases();
  } catch {
    // No PostgreSQL answers: no test database either.
  }
}

export const setup = sweep;
export const teardown = sweep;

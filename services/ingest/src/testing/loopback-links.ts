// Links driven by hand (tests and bench/batch-visits.ts): a batch writer that logs nothing and rebuilds nothing, and a
// transport that is connected and counts nothing. Not used at run time.
import type { Kysely } from 'kysely';
import type { Database } from '@takt/db';
import type { Transport } from '../sources/transport';
import { noCounters } from '../sources/transport';
import type { BatchWriterOptions } from '../worker/batch-writer';
import type { LinkMap } from '../worker/link';

/** The options of a batch writer over `links` at the clock `now`, with `more`. */
export function handWriterOptions(
  db: Kysely<Database>,
  now: () => number,
  links: LinkMap,
  more: Partial<BatchWriterOptions> = {},
): BatchWriterOptions {
  return { db, now, log: () => {}, links, rebuild: async () => {}, ...more };
}

/** A transport that stays connected and counts no line. */
export const connectedTransport = (): Transport => ({
  status: 'CONNECTED',
  counters: noCounters(),
  stop: async () => {},
});

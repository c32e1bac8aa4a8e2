import { openDb } from '@takt/db';
import type { Db } from '@takt/db';

// Decision 1192: on PostgreSQL a node's API and its ingest do not share one pool of connections. A pooled client is
// handed to statements in the order they asked, so with one pool every statement of a report (a dozen and more one
// after another) queued behind the ingest's batches and rollup recomputes, and a call under a plant's ingest waited
// minutes. The API (with the background workers beside it) has a pool of its own, the ingest another: a node opens
// at most TAKT_DB_POOL_SIZE + TAKT_INGEST_DB_POOL_SIZE connections, plus one for the live bus's LISTEN.
// SQLite keeps one handle when the ingest runs in the API's loop (TAKT_INGEST_THREAD=0): better-sqlite3 waits for a
// lock by blocking the event loop, so a second connection of the same loop writing beside the ingest's open
// transaction would hold it until its busy timeout. In its own thread (the default, decision 1226, node-ingest.ts)
// the ingest opens a connection of its own there, and a wait blocks only the thread that waits.

/** The API's pool (PostgreSQL) when TAKT_DB_POOL_SIZE is unset. */
export const API_POOL_SIZE = 10;
/** The ingest's pool (PostgreSQL) when TAKT_INGEST_DB_POOL_SIZE is unset. */
export const INGEST_POOL_SIZE = 4;

export interface NodeDatabases {
  /** The API's handle: HTTP calls, migrations, provisioning and the background workers beside the API. */
  api: Db;
  /** The ingest's handle: its own pool on PostgreSQL, the API's handle on SQLite; null without ingest. */
  ingest: Db | null;
  close(): Promise<void>;
}

/** The node's database handles (see above); `ingest` false: an API node, one handle. */
export function openNodeDatabases(
  url: string,
  sizes: { api?: number; ingest?: number; withIngest: boolean },
): NodeDatabases {
  const api = openDb(url, { poolSize: sizes.api ?? API_POOL_SIZE });
  if (!sizes.withIngest) return { api, ingest: null, close: () => api.close() };
  const ingest = ingestDatabase(api, url, sizes.ingest);
  if (ingest === api) return { api, ingest, close: () => api.close() };
  return {
    api,
    ingest,
    // The ingest's handle first: the ingest is stopped before, and the API's workers may still end a statement.
    close: async () => {
      await ingest.close();
      await api.close();
    },
  };
}

/**
 * The ingest's handle beside the API's `api` on the same database `url`: a pool of its own (`size` connections) on
 * PostgreSQL, `api` itself on SQLite. The caller closes a handle that is not `api`.
 */
export function ingestDatabase(api: Db, url: string, size = INGEST_POOL_SIZE): Db {
  return api.dialect === 'sqlite' ? api : openDb(url, { poolSize: size });
}

import { isPostgresUrl, openDb, sqliteFilePath, startWalCheckpointer } from '@takt/db';
import type { Db, WalCheckpointer } from '@takt/db';

// Decision 1192: on PostgreSQL a node's API and its ingest do not share one pool of connections. A pooled client is
// handed to statements in the order they asked, so with one pool every statement of a report (a dozen and more one
// after another) queued behind the ingest's batches and rollup recomputes, and a call under a plant's ingest waited
// minutes. The API (with the background workers beside it) has a pool of its own, the ingest another: a node opens
// at most TAKT_DB_POOL_SIZE + TAKT_INGEST_DB_POOL_SIZE connections, plus one for the live bus's LISTEN.
// SQLite keeps one handle when the ingest runs in the API's loop (TAKT_INGEST_THREAD=0): better-sqlite3 waits for a
// lock by blocking the event loop, so a second connection of the same loop writing beside the ingest's open
// transaction would hold it until its busy timeout. In its own thread (the default, decision 1226, node-ingest.ts)
// the ingest opens a connection of its own there, and a wait blocks only the thread that waits.
// Decision 1229: a node's SQLite connections never checkpoint the WAL themselves (a commit that did held the event
// loop for its copy and fsync); a thread of its own does, on a connection of its own (packages/db wal-checkpointer).
// They read the file through a memory map (decision 1230).

/**
 * SQLite: the node reads the file through a memory map up to this size (decision 1230: the report mix 0.84–0.91× the
 * time of reads copied into SQLite's cache). Virtual address space, not memory: the pages are the OS's file cache.
 */
export const NODE_SQLITE_MMAP_BYTES = 2 ** 30;

/**
 * How a node opens a SQLite file when it runs the WAL checkpointer (decision 1229): every connection of the node,
 * the API's and the ingest thread's (decision 1226), leaves checkpoints to it and reads through the memory map.
 */
export const NODE_SQLITE_OPTIONS = { walCheckpoints: 'external', mmapBytes: NODE_SQLITE_MMAP_BYTES } as const;

/** The API's pool (PostgreSQL) when TAKT_DB_POOL_SIZE is unset. */
export const API_POOL_SIZE = 10;
/** The ingest's pool (PostgreSQL) when TAKT_INGEST_DB_POOL_SIZE is unset. */
export const INGEST_POOL_SIZE = 4;

/**
 * How the node's ingest opens its own handle where it runs (node-ingest.ts: its thread, decision 1226), so that it is
 * opened as the node's: main.ts and the benches hand it to startNodeIngest as it is.
 */
export interface NodeIngestHandle {
  /** DATABASE_URL. */
  url: string;
  /** PostgreSQL: the ingest's own pool (decision 1192), TAKT_INGEST_DB_POOL_SIZE or INGEST_POOL_SIZE. */
  poolSize: number;
  /**
   * SQLite: the node's checkpointer runs, so the ingest's connection leaves checkpoints to it and reads through the
   * node's memory map (NODE_SQLITE_OPTIONS, decisions 1229 and 1230).
   */
  externalCheckpoints: boolean;
}

export interface NodeDatabases {
  /** The API's handle: HTTP calls, migrations, provisioning and the background workers beside the API. */
  api: Db;
  /** The ingest's handle: its own pool on PostgreSQL, the API's handle on SQLite; null without ingest. */
  ingest: Db | null;
  /** How the ingest opens its own handle in its thread (startNodeIngest's config). */
  ingestHandle: NodeIngestHandle;
  /** SQLite with `checkpointer`: the WAL checkpointer's thread, stopped by close(); else null. */
  checkpointer: WalCheckpointer | null;
  close(): Promise<void>;
}

/**
 * The node's database handles (see above); `withIngest` false: one handle here, the ingest (if any) opening its own
 * in its thread by `ingestHandle`. `checkpointer` (main.ts): on a SQLite file, the WAL is checkpointed by a thread of
 * its own, not by the commits on this thread (its errors go to `log`), and the file is read through a memory map.
 */
export function openNodeDatabases(
  url: string,
  sizes: {
    api?: number;
    ingest?: number;
    withIngest: boolean;
    checkpointer?: boolean;
    log?: (line: string) => void;
  },
): NodeDatabases {
  const external = sizes.checkpointer === true && !isPostgresUrl(url) && sqliteFilePath(url) !== ':memory:';
  const api = openDb(url, {
    poolSize: sizes.api ?? API_POOL_SIZE,
    ...(external ? NODE_SQLITE_OPTIONS : {}),
  });
  // Started once the file is open in WAL mode (openDb above).
  const checkpointer = external
    ? startWalCheckpointer(sqliteFilePath(url), sizes.log ? { log: sizes.log } : {})
    : null;
  const ingest = sizes.withIngest ? ingestDatabase(api, url, sizes.ingest) : null;
  return {
    api,
    ingest,
    ingestHandle: { url, poolSize: sizes.ingest ?? INGEST_POOL_SIZE, externalCheckpoints: external },
    checkpointer,
    // The ingest's handle first: the ingest is stopped before, and the API's workers may still end a statement. The
    // checkpointer last: its connection, the file's last, checkpoints what is left as it closes.
    close: async () => {
      if (ingest && ingest !== api) await ingest.close();
      await api.close();
      await checkpointer?.stop();
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

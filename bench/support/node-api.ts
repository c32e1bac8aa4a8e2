// The API of a bench served on the database handles a node opens (services/api databases.ts openNodeDatabases, as
// main.ts opens them): on SQLite with the node's WAL checkpointer thread and its connection options (decisions 1229,
// 1230), on PostgreSQL with the node's API pool (10, TAKT_DB_POOL_SIZE); and how the node's ingest opens its own
// (`ingestHandle`, handed to startNodeIngest by bench/support/live-ingest.ts as main.ts hands it). The bench seeds its
// plant on the test harness's handle first; the node's handles are opened on the same database afterwards.
// Runs in a baseline's worktree from before `ingestHandle` too (as that tree's main.ts wired its ingest).
import type { NodeDatabases, NodeIngestHandle } from '../../services/api/src/databases';
import { openNodeDatabases } from '../../services/api/src/databases';
import { apiHarnessOn } from '../../services/api/src/testing/app';
import type { ApiHarness } from '../../services/api/src/testing/app';
import { reportThreadsOn } from '../../services/api/src/node-reports';
import type { NodeReports } from '../../services/api/src/node-reports';

/** A node's database handles, and how its ingest opens its own. */
export interface BenchNode {
  databases: NodeDatabases;
  ingestHandle: Partial<NodeIngestHandle> & { url: string };
}

/**
 * DATABASE_URL of a test database as a node is given it: the test harness's PostgreSQL URL turns commits' WAL flush
 * off for tests (`options=-c synchronous_commit=off`), which a node's DATABASE_URL does not.
 */
export function nodeUrl(url: string): string {
  if (!/^postgres(ql)?:\/\//i.test(url)) return url;
  const u = new URL(url);
  u.search = '';
  return u.toString();
}

/** The handles main.ts opens on the database `url` (an API node's, or a node whose ingest runs in its thread). */
export function openBenchNode(url: string): BenchNode {
  const at = nodeUrl(url);
  const databases = openNodeDatabases(at, {
    withIngest: false,
    checkpointer: true,
    log: (line) => console.error(line),
  });
  // A tree from before `ingestHandle`: as its main.ts (the checkpointer's options; the pool's size the thread's).
  const ingestHandle = (databases as Partial<NodeDatabases>).ingestHandle ?? {
    url: at,
    externalCheckpoints: databases.checkpointer !== null,
  };
  return { databases, ingestHandle };
}

/**
 * An API harness on the node's handles of `h`'s database (its clock starting at `start`), and those handles; the
 * harness's close() closes them (not `h`).
 */
export function nodeApi(
  h: ApiHarness,
  start: number,
  over: Parameters<typeof apiHarnessOn>[2] = {},
): BenchNode & { api: ApiHarness; reports: NodeReports | null } {
  const node = openBenchNode(h.t.url);
  // Decision 1253: the node's report threads, as main.ts starts them (TAKT_REPORT_THREADS, none when unset).
  const reports = reportThreadsOn(
    node.databases.api.db,
    { url: node.ingestHandle.url, externalCheckpoints: node.ingestHandle.externalCheckpoints ?? false },
    Number(process.env.TAKT_REPORT_THREADS || 0),
    (line) => console.error(line),
  );
  const api = apiHarnessOn(
    {
      ...node.databases.api,
      url: h.t.url,
      cleanup: async () => {
        await reports?.stop();
        await node.databases.close();
      },
    },
    start,
    over,
  );
  return { ...node, api, reports };
}

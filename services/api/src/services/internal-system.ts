import type { Executor } from '@takt/db';
import type { SystemVersion } from '@takt/domain';
import type { LiveBus } from '../live/bus';
import { pushToTablets } from '../live/tablet-auth';
import {
  activeTablets,
  deleteAllRevokedTablets,
  incrementRevision,
  readVersions,
} from '../repositories/internal-system';
import type { VersionRow } from '../repositories/internal-system';
import { API_VERSION } from '../version';

// reports-admin §2 "System page: refresh all tablets, increment version, increment JS version, purge tablets",
// §7 System calls, §8 texts (decision 0922). Root only, across companies (bare database on purpose).

/**
 * The MM-API-Version value (live-operations §1, reports-admin §7 "Header MM-API-Version triggers new-version
 * notice"): the build's API_VERSION, plus the System page's revisions once either was incremented, so an
 * increment changes the header every open app compares, and both apps show their new-version toast.
 */
export function versionStamp(v: Pick<VersionRow, 'apiRevision' | 'jsRevision'>): string {
  return v.apiRevision === 0 && v.jsRevision === 0
    ? API_VERSION
    : `${API_VERSION}+${v.apiRevision}.${v.jsRevision}`;
}

/**
 * How long a process answers with the stamp it last read. Another API process's increment reaches this one's
 * responses within this time (ARCHITECTURE.md "no in-memory state that another process would need": the
 * database holds the truth, this is only a read cache); the process that increments sees it at once.
 */
export const VERSION_RECHECK_MS = 5_000;

interface Cached {
  stamp: string;
  readAt: number;
  pending: Promise<string> | null;
}
// Keyed by the database handle, so each app (and each test's fresh database) has its own cache.
const caches = new WeakMap<Executor, Cached>();

/** The header value for a response now; reads the database at most every VERSION_RECHECK_MS. */
export async function currentVersionStamp(deps: { db: Executor; now: () => number }): Promise<string> {
  const now = deps.now();
  const hit = caches.get(deps.db);
  if (hit && (Math.abs(now - hit.readAt) < VERSION_RECHECK_MS || hit.pending))
    return hit.pending ?? hit.stamp;
  const entry: Cached = hit ?? { stamp: API_VERSION, readAt: now, pending: null };
  entry.pending = readVersions(deps.db)
    .then((v) => {
      entry.stamp = versionStamp(v);
      return entry.stamp;
    })
    // An unreadable table (a database mid-migration, a lost connection) must not fail every response: the
    // last known stamp stays until the next read works.
    .catch(() => entry.stamp)
    .finally(() => {
      entry.readAt = deps.now();
      entry.pending = null;
    });
  caches.set(deps.db, entry);
  return entry.pending;
}

/**
 * The last stamp read for `db`, without waiting for the database: for answers that must not depend on it
 * (GET /healthz while the database is partitioned away).
 */
export const knownVersionStamp = (db: Executor): string => caches.get(db)?.stamp ?? API_VERSION;

const view = (v: VersionRow): SystemVersion => ({ ...v, version: versionStamp(v) });

export const systemVersion = async (db: Executor): Promise<SystemVersion> => view(await readVersions(db));

/** reports-admin §7 "increment version (type js optional)". Mutates system_versions and this process's cache. */
export async function incrementVersion(
  db: Executor,
  type: 'js' | undefined,
  now: number,
): Promise<SystemVersion> {
  const v = await incrementRevision(db, type === 'js' ? 'js' : 'api', now);
  caches.set(db, { stamp: versionStamp(v), readAt: now, pending: null });
  return view(v);
}

/**
 * Asks every active tablet of every company to reload (reports-admin §2 "refresh all tablets"); `notPushed`
 * lists the ids whose socket did not answer, for §8's dialog "Unable to refresh one or more tablets".
 */
export async function refreshEveryTablet(db: Executor, bus: LiveBus) {
  const tablets = await activeTablets(db);
  const byCompany = new Map<string, string[]>();
  for (const tb of tablets) byCompany.set(tb.companyId, [...(byCompany.get(tb.companyId) ?? []), tb.id]);
  const results = await Promise.all(
    [...byCompany].map(([companyId, ids]) => pushToTablets(bus, companyId, ids, 'refresh')),
  );
  const notPushed = new Set(results.flatMap((r) => r.notPushed));
  return {
    pushed: results.flatMap((r) => r.pushed),
    notPushed: [...notPushed],
    // So the dialog can say which tablet an id is, and where.
    notPushedTablets: tablets
      .filter((tb) => notPushed.has(tb.id))
      .map(({ id, company, label }) => ({ id, company, label })),
  };
}

/** reports-admin §7 "purge tablets (returns purgedTabletCount)": every company's revoked tablets (decision 0890). */
export async function purgeEveryTablet(db: Executor): Promise<{ purgedTabletCount: number }> {
  return { purgedTabletCount: await deleteAllRevokedTablets(db) };
}

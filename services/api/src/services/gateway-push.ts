import type { Kysely } from 'kysely';
import type { Database, DialectName, IngestInboxTable, ObservationRow } from '@takt/db';
import { conditionText, insertInbox, insertObservations } from '@takt/db';
import type { PushBatch, PushProblem } from '@takt/domain';
import { hashToken, looksLikeGatewayToken } from '../auth/tokens';
import { ApiError } from '../http/errors';
import type { IngestRules } from '../ingest-rules';
import type { Gateway } from '../repositories/gateways';
import {
  addSourceStats,
  findGatewayByTokenHash,
  lockGatewayForPush,
  pushTargets,
  sequenceGapsOf,
  updateGateway,
} from '../repositories/gateways';

// The edge's own calls (reports-admin §2, §3; ARCHITECTURE.md "Ingest contract": at-least-once from the
// edge, exactly-once in storage), authenticated by gateway token, never by session.

type Db = Kysely<Database>;

const unknownToken = () => new ApiError(401, 'NOT_AUTHENTICATED', 'Unknown gateway token.');

/** A 400 listing every problem of a push body, as the edge logs it. */
export function pushProblems(problems: PushProblem[]): ApiError {
  const issues = problems.map((p) => ({ field: p.path || '(body)', code: 'invalid', message: p.message }));
  const message = issues.map((i) => `${i.field}: ${i.message}`).join('; ');
  return new ApiError(400, 'VALIDATION_ERROR', message || 'The push is not valid.', issues);
}

export interface GatewayCaller {
  gateway: Gateway;
  tokenHash: string;
}

/** The gateway holding `token` (the bearer token of the request), or 401. */
export async function authenticateGateway(db: Db, token: string | null): Promise<GatewayCaller> {
  if (!token || !looksLikeGatewayToken(token)) throw unknownToken();
  const tokenHash = hashToken(token);
  const gateway = await findGatewayByTokenHash(db, tokenHash);
  if (!gateway) throw unknownToken();
  return { gateway, tokenHash };
}

/** The body of a push, checked by the ingest rules; a batch for another gateway is refused. */
export function checkPushBatch(rules: IngestRules, caller: GatewayCaller, body: unknown): PushBatch {
  if (caller.gateway.state !== 'active')
    throw new ApiError(403, 'GATEWAY_DISABLED', 'The gateway is disabled; its records stay in its buffer.');
  const checked = rules.validatePushBatch(body);
  if (!checked.ok) throw pushProblems(checked.problems);
  const batch = checked.batch;
  if (batch.gatewayId !== caller.gateway.id && batch.gatewayId !== caller.gateway.edgeRef)
    throw pushProblems([{ path: 'gatewayId', message: 'does not match the gateway token' }]);
  return batch;
}

/**
 * Stores a checked batch. In one transaction holding the gateway's row, only records above the stored
 * sequence are taken (decidePush); each one's observations go to `observations` and its line to
 * `ingest_inbox` for the worker that derives the machine; the answer acknowledges the highest stored
 * sequence. Records for a machineRef with no machine are acknowledged but not stored
 * (docs/decisions/0400-gateway-unknown-machines.md). Mutates the gateway's row and its sources' counters.
 */
export async function storePush(
  deps: {
    db: Db;
    dialect: DialectName;
    ingest: IngestRules;
    /** Monitoring once committed (the ingest counter and lag of decision 0961): count, earliest time, now. */
    onStored?: (count: number, oldestTs: number, at: number) => void;
    /** Records refused for a time outside the window (decision 0980), once committed. */
    onTimeRefused?: (source: string, count: number) => void;
  },
  caller: GatewayCaller,
  batch: PushBatch,
  buffered: number | null,
  at: number,
) {
  const { db, dialect, ingest } = deps;
  let stored = { count: 0, oldestTs: Infinity };
  const answer = await db.transaction().execute(async (trx) => {
    // Re-read under the lock, by token: a reset or deregister that committed meanwhile wins.
    const g = await lockGatewayForPush(trx, dialect, caller.tokenHash);
    if (!g) throw unknownToken();
    if (g.state !== 'active') throw new ApiError(403, 'GATEWAY_DISABLED', 'The gateway is disabled.');
    const targets = await pushTargets(trx, g.id, g.companyId);
    // Keys resolve through each machine's adapter fields, as the worker reads the same lines, so a pushed
    // line and a streamed one mean the same (ARCHITECTURE.md "Ingest contract": adapters map raw keys).
    const gaps = await sequenceGapsOf(trx, g.id);
    const kinds = await ingest.pushKeyKinds(trx, targets);
    const decision = ingest.decidePush(batch, g.lastSequence, at, kinds, gaps);
    const observations: ObservationRow[] = [];
    const inbox: IngestInboxTable[] = [];
    const stats = new Map<string, { lines: number; observations: number; rejected: number }>();
    const unknown = new Set<string>();
    let unknownRecords = 0;
    for (const r of decision.accepted) {
      const target = targets.get(r.machineRef);
      if (!target) {
        unknown.add(r.machineRef);
        unknownRecords++;
        continue;
      }
      const s = stats.get(target.sourceId) ?? { lines: 0, observations: 0, rejected: 0 };
      stats.set(target.sourceId, s);
      s.lines++;
      inbox.push({
        id: crypto.randomUUID(),
        company_id: target.companyId,
        machine_id: target.machineId,
        received_at: at,
        seq: r.seq,
        line: r.line,
      });
      if (r.parsed.type !== 'data') continue;
      // Rejected lines, as every source counts them (decision 0203).
      if (r.parsed.rejected > 0) s.rejected++;
      for (const o of r.parsed.observations) {
        if (o.kind === 'asset') continue;
        s.observations++;
        observations.push({
          company_id: target.companyId,
          machine_id: target.machineId,
          ts: o.ts,
          key: o.key,
          value: o.kind === 'condition' && o.condition ? conditionText(o.condition) : o.value,
        });
      }
    }
    await insertObservations(trx, observations);
    let oldestTs = Infinity;
    for (const o of observations) if (o.ts < oldestTs) oldestTs = o.ts;
    stored = { count: observations.length, oldestTs };
    await insertInbox(trx, inbox);
    for (const [sourceId, s] of stats) await addSourceStats(trx, sourceId, { ...s, lastLineAt: at });
    await updateGateway(trx, g.id, {
      last_sequence: decision.ack,
      sequence_gaps: decision.gaps.length > 0 ? JSON.stringify(decision.gaps) : null,
      last_response: at,
      buffered_records: buffered ?? g.bufferedRecords,
      ...(inbox.length > 0 ? { last_shdr: at } : {}),
      // The first accepted push of a token activates the edge: reports-admin §3 activationTimestamp.
      ...(g.activationStatus !== 'activated'
        ? { activation_status: 'activated' as const, activated_at: at }
        : {}),
    });
    return {
      ack: decision.ack,
      accepted: decision.accepted.length,
      stored: decision.accepted.length - unknownRecords,
      duplicates: decision.duplicates,
      conflicts: decision.conflicts,
      skipped: decision.skipped,
      rejected: decision.rejected,
      timeRefused: decision.timeRefused,
      unknownMachines: [...unknown].sort().slice(0, 100),
      unknownRecords,
    };
  });
  if (stored.count > 0) deps.onStored?.(stored.count, stored.oldestTs, at);
  if (answer.timeRefused > 0) deps.onTimeRefused?.('gateway', answer.timeRefused);
  return answer;
}

/**
 * The supervisor's join (reports-admin §2 "Supervisor Last Join"): records its versions and answers the
 * configuration it should run. Mutates the gateway's row.
 */
export async function joinGateway(
  db: Db,
  gateway: Gateway,
  versions: { supervisorVersion?: string | undefined; pusherVersion?: string | undefined },
  at: number,
) {
  const pusher = {
    ...gateway.pusher,
    ...(versions.pusherVersion ? { version: versions.pusherVersion } : {}),
  };
  const supervisor = {
    ...gateway.supervisor,
    ...(versions.supervisorVersion ? { version: versions.supervisorVersion } : {}),
  };
  await updateGateway(db, gateway.id, {
    supervisor_last_join: at,
    pusher_config: JSON.stringify(pusher),
    supervisor_config: JSON.stringify(supervisor),
  });
  return {
    id: gateway.id,
    state: gateway.state,
    ingestMultiplier: gateway.ingestMultiplier,
    pusher,
    supervisor,
    lastSequence: gateway.lastSequence,
  };
}

import { z } from 'zod';
import { adminMachineSchema, idSchema, INTEGRATION_TYPES } from '@takt/domain';
import type { AdminMachine, IntegrationType } from '@takt/domain';
import { notFound } from '../http/errors';
import { machine17Facts } from '../repositories/machines17';
import type { Machine17Facts } from '../repositories/machines17';
import type { ServiceCtx } from './context';
import { listAdminMachines } from './machines-admin';

// The "version 17" machine (reports-admin §3 Machine, §7 "GET /api/machines17", "Machines: query17, get17";
// decision 1107): the administration's machine with everything the spec's Machine names around it: its
// adapter and adapter type, how its sources bind (adapterBinding, gateway, integration type, disabled), its
// groups and notifications, the open run (jobScheduleGroupId), the live part count, decommissioned, version 2.

const named = z.object({ id: idSchema, name: z.string() });

export const machine17SourceSchema = z.object({
  id: idSchema,
  /** How the source's data arrives: shdr, agent, mqtt, gateway (decision 0923's integration types). */
  newIntegrationType: z.string(),
  /** Where it binds: host:port of an SHDR adapter, an agent's URL, an MQTT or gateway machine reference. */
  adapterBinding: z.string(),
  gateway: named.nullable(),
  disabled: z.boolean(),
});

export const machine17Schema = adminMachineSchema.extend({
  createdAt: z.number().int(),
  adapter: named.extend({ class: z.string() }).nullable(),
  /** The adapter's class (its adapter type's name), null without an adapter. */
  adapterType: z.string().nullable(),
  /** The first enabled source's binding, null without one. */
  adapterBinding: z.string().nullable(),
  gateway: named.nullable(),
  sources: z.array(machine17SourceSchema),
  integrationType: z.enum(INTEGRATION_TYPES),
  groups: z.array(named),
  notifications: z.array(
    z.object({
      accountId: idSchema,
      type: z.enum(['downtime', 'utilization']),
      level: z.number().int(),
      delayMinutes: z.number().int(),
    }),
  ),
  decommissioned: z.boolean(),
  /** The job run (job schedule group) open on the machine now, null when none. */
  jobScheduleGroupId: idSchema.nullable(),
  /** The controller's part count as last reported (the live row), null before any. */
  partCount: z.number().nullable(),
  version: z.literal(2),
});
export type Machine17 = z.infer<typeof machine17Schema>;

export const MACHINE17_SORTS = [
  'sortOrder',
  'name',
  'createdAt',
  'decommissionedAt',
  'integrationType',
] as const;

/** GET /api/machines17/query (query17): a page of the company's machines. */
export const machine17QuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(100, 'limit must be at most 100')
    .default(25),
  offset: z.coerce
    .number({ error: 'offset must be a number' })
    .int('offset must be a whole number')
    .min(0, 'offset cannot be negative')
    .max(1_000_000, 'offset must be at most 1000000')
    .default(0),
  orderBy: z
    .enum(MACHINE17_SORTS, { error: `orderBy must be one of ${MACHINE17_SORTS.join(', ')}` })
    .default('sortOrder'),
  orderDirection: z.enum(['asc', 'desc'], { error: 'orderDirection must be asc or desc' }).default('asc'),
  /** Matches the machine's name, its adapter's or one of its groups', case-insensitively. */
  filter: z.string().trim().max(200, 'filter must be at most 200 characters').default(''),
});
export type Machine17Query = z.infer<typeof machine17QuerySchema>;

export const machine17PageSchema = z.object({
  items: z.array(machine17Schema),
  total: z.number().int().nonnegative(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type Machine17Page = z.infer<typeof machine17PageSchema>;

/** Where a source binds, in one string (no credentials: sources carry none). */
function bindingOf(s: Machine17Facts['sources'][number]): string {
  if (s.kind === 'shdr') return `${s.host}:${s.port}`;
  if (s.kind === 'agent') return s.baseUrl ?? '';
  return s.machineRef ?? '';
}

function toMachine17(m: AdminMachine, f: Machine17Facts): Machine17 {
  const adapter = m.adapterId ? (f.adapters.get(m.adapterId) ?? null) : null;
  const sources = f.sources
    .filter((s) => s.machineId === m.id)
    .map((s) => ({
      id: s.id,
      newIntegrationType: s.kind,
      adapterBinding: bindingOf(s),
      gateway: s.gatewayId ? { id: s.gatewayId, name: s.gatewayName ?? '' } : null,
      disabled: !s.enabled,
    }));
  const enabled = sources.filter((s) => !s.disabled);
  // Decision 0923: manual, else the kind of the first enabled source, else none.
  const kind = enabled[0]?.newIntegrationType;
  const integrationType: IntegrationType =
    m.workcenterType === 'manual'
      ? 'manual'
      : (INTEGRATION_TYPES as readonly string[]).includes(kind ?? '')
        ? (kind as IntegrationType)
        : 'none';
  return {
    ...m,
    createdAt: f.createdAt.get(m.id) ?? 0,
    adapter,
    adapterType: adapter?.class ?? null,
    adapterBinding: enabled[0]?.adapterBinding ?? null,
    gateway: sources.find((s) => s.gateway)?.gateway ?? null,
    sources,
    integrationType,
    groups: f.groups.filter((g) => g.machineId === m.id).map((g) => ({ id: g.id, name: g.name })),
    notifications: f.notifications
      .filter((n) => n.machineId === m.id)
      .map((n) => ({ accountId: n.accountId, type: n.type, level: n.level, delayMinutes: n.delayMinutes })),
    decommissioned: m.decommissionedAt !== null,
    jobScheduleGroupId: f.openRuns.get(m.id) ?? null,
    partCount: f.partCounts.get(m.id) ?? null,
    version: 2,
  };
}

/** GET /api/machines17: every machine of the company, decommissioned too, in workcenter order. */
export async function machines17(ctx: ServiceCtx): Promise<Machine17[]> {
  const machines = await listAdminMachines(ctx);
  const facts = await machine17Facts(
    ctx.scope,
    machines.map((m) => m.id),
    ctx.now,
  );
  return machines.map((m) => toMachine17(m, facts));
}

/** get17: one machine; another company's is not found. */
export async function machine17(ctx: ServiceCtx, id: string): Promise<Machine17> {
  const found = (await listAdminMachines(ctx)).find((m) => m.id === id);
  if (!found) throw notFound('Machine');
  return toMachine17(found, await machine17Facts(ctx.scope, [id], ctx.now));
}

const compareBy = (q: Machine17Query) => (a: Machine17, b: Machine17) => {
  const key = (m: Machine17): string | number | null =>
    q.orderBy === 'name'
      ? m.name.toLowerCase()
      : q.orderBy === 'decommissionedAt'
        ? m.decommissionedAt
        : q.orderBy === 'integrationType'
          ? m.integrationType
          : m[q.orderBy];
  const x = key(a);
  const y = key(b);
  // Blanks last in both directions; the id breaks ties so pages never repeat or skip a machine.
  if (x === null || y === null) return x === y ? a.id.localeCompare(b.id) : x === null ? 1 : -1;
  const c = x < y ? -1 : x > y ? 1 : 0;
  return (q.orderDirection === 'asc' ? c : -c) || a.id.localeCompare(b.id);
};

/**
 * query17: a page of the company's machines, filtered and sorted. A company has hundreds of machines at most
 * (the administration lists them whole), so the page is cut from the whole list.
 */
export async function queryMachines17(ctx: ServiceCtx, q: Machine17Query): Promise<Machine17Page> {
  const needle = q.filter.toLowerCase();
  const all = (await machines17(ctx)).filter(
    (m) =>
      needle === '' ||
      m.name.toLowerCase().includes(needle) ||
      (m.adapter?.name.toLowerCase().includes(needle) ?? false) ||
      m.groups.some((g) => g.name.toLowerCase().includes(needle)),
  );
  all.sort(compareBy(q));
  return {
    items: all.slice(q.offset, q.offset + q.limit),
    total: all.length,
    limit: q.limit,
    offset: q.offset,
  };
}

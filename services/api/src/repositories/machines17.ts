import type { CompanyScope } from '@takt/db';

// What the "version 17" machine adds to the administration's machine (decision 1107), read for many machines
// in one query per table: adapters, sources with their gateways, groups, notifications, open runs, live part
// counts and creation times.

export interface Machine17Facts {
  createdAt: Map<string, number>;
  adapters: Map<string, { id: string; name: string; class: string }>;
  sources: Array<{
    id: string;
    machineId: string;
    kind: string;
    host: string;
    port: number;
    baseUrl: string | null;
    machineRef: string | null;
    gatewayId: string | null;
    gatewayName: string | null;
    enabled: boolean;
  }>;
  groups: Array<{ machineId: string; id: string; name: string }>;
  notifications: Array<{
    machineId: string;
    accountId: string;
    type: 'downtime' | 'utilization';
    level: number;
    delayMinutes: number;
  }>;
  /** The open run of each machine at `now` (started, not ended). */
  openRuns: Map<string, string>;
  partCounts: Map<string, number | null>;
}

export async function machine17Facts(
  scope: CompanyScope,
  machineIds: readonly string[],
  now: number,
): Promise<Machine17Facts> {
  const ids = [...machineIds];
  if (ids.length === 0)
    return {
      createdAt: new Map(),
      adapters: new Map(),
      sources: [],
      groups: [],
      notifications: [],
      openRuns: new Map(),
      partCounts: new Map(),
    };
  const [machines, adapters, sources, groups, notifications, runs, live] = await Promise.all([
    scope.selectFrom('machines').select(['id', 'created_at']).where('id', 'in', ids).execute(),
    scope.selectFrom('adapters').select(['id', 'name', 'class']).execute(),
    scope
      .selectFrom('machine_sources')
      .leftJoin('gateways', 'gateways.id', 'machine_sources.gateway_id')
      .select([
        'machine_sources.id',
        'machine_sources.machine_id',
        'machine_sources.kind',
        'machine_sources.host',
        'machine_sources.port',
        'machine_sources.base_url',
        'machine_sources.machine_ref',
        'machine_sources.gateway_id',
        'gateways.name as gateway_name',
        'machine_sources.enabled',
      ])
      .where('machine_sources.machine_id', 'in', ids)
      .orderBy('machine_sources.created_at')
      .orderBy('machine_sources.id')
      .execute(),
    scope
      .selectFrom('machine_group_members')
      .innerJoin('machine_groups', 'machine_groups.id', 'machine_group_members.group_id')
      .select(['machine_group_members.machine_id', 'machine_groups.id', 'machine_groups.name'])
      .where('machine_group_members.machine_id', 'in', ids)
      // The join reaches groups through scoped members; the groups' own company must agree too.
      .where('machine_groups.company_id', '=', scope.companyId)
      .orderBy('machine_groups.name')
      .orderBy('machine_groups.id')
      .execute(),
    scope
      .selectFrom('machine_notifications')
      .select(['machine_id', 'account_id', 'type', 'level', 'delay_minutes'])
      .where('machine_id', 'in', ids)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    scope
      .selectFrom('job_runs')
      .select(['id', 'machine_id'])
      .where('machine_id', 'in', ids)
      .where('start_at', '<=', now)
      .where((eb) => eb.or([eb('end_at', 'is', null), eb('end_at', '>', now)]))
      .orderBy('start_at')
      .execute(),
    scope
      .selectFrom('machine_live')
      .select(['machine_id', 'part_count'])
      .where('machine_id', 'in', ids)
      .execute(),
  ]);
  return {
    createdAt: new Map(machines.map((m) => [m.id, Number(m.created_at)])),
    adapters: new Map(adapters.map((a) => [a.id, { id: a.id, name: a.name, class: a.class }])),
    sources: sources.map((s) => ({
      id: s.id,
      machineId: s.machine_id,
      kind: s.kind,
      host: s.host,
      port: Number(s.port),
      baseUrl: s.base_url,
      machineRef: s.machine_ref,
      gatewayId: s.gateway_id,
      gatewayName: s.gateway_name ?? null,
      enabled: Number(s.enabled) === 1,
    })),
    groups: groups.map((g) => ({ machineId: g.machine_id, id: g.id, name: g.name })),
    notifications: notifications.map((n) => ({
      machineId: n.machine_id,
      accountId: n.account_id,
      type: n.type,
      level: Number(n.level),
      delayMinutes: Number(n.delay_minutes),
    })),
    // The latest-started open run wins (runs ordered by start).
    openRuns: new Map(runs.map((r) => [r.machine_id, r.id])),
    partCounts: new Map(live.map((l) => [l.machine_id, l.part_count == null ? null : Number(l.part_count)])),
  };
}

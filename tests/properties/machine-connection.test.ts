import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardResponse } from '@takt/domain';
import { companyScope } from '@takt/db';
import { DIALECTS } from '@takt/db/testing';
import { apiHarness } from '../../services/api/src/testing/app';
import type { ApiHarness } from '../../services/api/src/testing/app';
import { createAdapter } from '../../services/api/src/repositories/adapters';
import { createShdrSource } from '../../services/api/src/repositories/machine-sources';
import { createMachine } from '../../services/api/src/repositories/machines';
import type { Company } from '../../services/api/src/repositories/company';
import { machineRows } from '../../apps/office/src/machines/machines-table';
import { connectionView, parseDiagnostics } from '../../apps/office/src/machine-tools/diagnostics';

// Issue 28 point 5 (decision 1055): the office Machines list (rows from GET /api/dashboard) and the machine's
// Diagnostics page (GET /api/machines/:id/diagnostics) say the same words for the same machine.

const MIN = 60_000;

describe.each(DIALECTS)(
  'the Machines list and Diagnostics agree on a machine’s connection on %s',
  (dialect) => {
    let h: ApiHarness;
    let company: Company;
    let cookie: string;
    let now: number;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      h = await apiHarness(dialect);
      ({ company, cookie } = await h.tenant());
      now = h.clock.now;
      const scope = companyScope(h.t.db, company.id);
      const adapterId = await createAdapter(
        scope,
        {
          name: 'Mill',
          fields: [{ name: 'exec', dataItemType: 'EXECUTION', componentName: 'path', componentType: 'Path' }],
        },
        now,
      );
      const machine = async (name: string, o: { adapter?: boolean; source?: boolean }) => {
        const id = await createMachine(
          scope,
          { name, adapterId: o.adapter === false ? null : adapterId },
          now,
        );
        if (o.source !== false)
          await createShdrSource(scope, { machineId: id, host: '10.0.0.9', port: 7878 }, now);
        ids[name] = id;
        return id;
      };
      const live = (id: string, connection: string, heartbeat: number, state: string) =>
        scope
          .insertInto('machine_live', {
            machine_id: id,
            state,
            state_since: heartbeat - 30 * MIN,
            connection,
            connection_since: heartbeat,
            last_heartbeat: heartbeat,
            execution: state === 'ACTIVE' ? 'ACTIVE' : null,
            execution_since: null,
            availability: null,
            controller_mode: null,
            program: null,
            part_count: null,
            spindle_speed: null,
            fault_since: null,
            fault_message: null,
            in_setup: 0,
            updated_at: heartbeat,
          })
          .execute();
      const observe = (id: string, ts: number, key: string, value: string) =>
        scope.insertInto('observations', { machine_id: id, ts, key, value }).execute();

      await machine('Never reported', {});
      // Every dial is refused: the worker logs a drop each time (a fresh "heartbeat"), the adapter never sent a line.
      const refused = await machine('Refusing adapter', {});
      await observe(refused, now - 60 * MIN, '@connection', 'DISCONNECTED');
      await observe(refused, now - 5_000, '@connection', 'DISCONNECTED');
      await live(refused, 'DISCONNECTED', now - 5_000, 'UNAVAILABLE');
      await machine('No source', { source: false });
      await machine('No adapter fields', { adapter: false });
      const up = await machine('Connected', {});
      await observe(up, now - 30 * MIN, 'exec', 'ACTIVE');
      await live(up, 'CONNECTED', now - 10_000, 'ACTIVE');
      const down = await machine('Disconnected 6 min', {});
      await observe(down, now - 40 * MIN, 'exec', 'ACTIVE');
      await observe(down, now - 6 * MIN, '@connection', 'DISCONNECTED');
      await live(down, 'DISCONNECTED', now - 6 * MIN, 'UNAVAILABLE');
    });
    afterAll(async () => {
      await h.close();
    });

    const listed = async () => {
      const res = await h.get('/api/dashboard', cookie);
      expect(res.status).toBe(200);
      const body = (await res.json()) as DashboardResponse;
      return machineRows(body.machines, body.groups, body.now);
    };
    const diagnosed = async (id: string) => {
      const res = await h.get(`/api/machines/${id}/diagnostics`, cookie);
      expect(res.status).toBe(200);
      return connectionView(parseDiagnostics(await res.json()), now, String);
    };

    it.each([
      ['Never reported', 'Never Reported'],
      ['Refusing adapter', 'Never Reported'],
      ['No source', 'Not configured'],
      ['No adapter fields', 'Not configured'],
      ['Disconnected 6 min', 'Disconnected'],
    ])('%s reads %s on both', async (name, words) => {
      const row = (await listed()).find((r) => r.name === name)!;
      const diag = await diagnosed(ids[name]!);
      expect(row).toMatchObject({ status: 'unavailable', statusText: words });
      expect(diag.label).toBe(words);
    });

    it('a refusing adapter shows no heartbeat on either (its logged drops are not one)', async () => {
      const row = (await listed()).find((r) => r.name === 'Refusing adapter')!;
      expect(row.lastHeartbeat).toBeNull();
      const res = await h.get(`/api/machines/${ids['Refusing adapter']!}/diagnostics`, cookie);
      expect(((await res.json()) as { lastHeartbeat: unknown }).lastHeartbeat).toBeNull();
    });

    it('a connected machine: Connected in Diagnostics, its state (Active) in the list', async () => {
      const row = (await listed()).find((r) => r.name === 'Connected')!;
      expect(row).toMatchObject({ status: 'success', statusText: 'Active' });
      expect((await diagnosed(ids.Connected!)).label).toBe('Connected');
    });
  },
);

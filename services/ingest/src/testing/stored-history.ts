// A machine's stored history as a worker that held it stored it (demo-history.ts's way), for the tests of a restarted
// worker's live run (decisions 1204, 1209). Not used at run time.
import { expect } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '@takt/db';
import { companyScope } from '@takt/db';
import { aJobWithRun } from '../../../api/src/testing/report-plant';
import { parseShdrLine } from '../sources/shdr/shdr';
import { noCounters } from '../sources/transport';
import { BatchWriter } from '../worker/batch-writer';
import { Link, LinkMap } from '../worker/link';
import { loadFieldMaps, loadSources } from '../worker/store';

const MIN = 60_000;

/**
 * The machine's stored history from `from` to `to`, as a worker that held it then stored it (demo-history.ts's way): a
 * connect with the machine running, a job run's setup (`setup`), then running again up to `to`, left open.
 */
export async function aHistory(
  db: Kysely<Database>,
  machineId: string,
  from: number,
  to: number,
  setup: Array<{ at: number; value: 'START' | 'END' }>,
): Promise<void> {
  const source = (await loadSources(db)).find((s) => s.machineId === machineId)!;
  const fields = (await loadFieldMaps(db, [machineId])).get(machineId) ?? new Map();
  let clock = from;
  const links = new LinkMap();
  const writer = new BatchWriter({ db, now: () => clock, log: () => {}, links, rebuild: async () => {} });
  const link = new Link(source, fields, from, writer);
  link.transport = { status: 'CONNECTED', counters: noCounters(), stop: async () => {} };
  links.set(source.sourceId, link);
  link.pipeline.setSetup(setup, from);
  const send = (at: number, fieldsText: string) => {
    const parsed = parseShdrLine(`${new Date(at).toISOString()}|${fieldsText}`, at, link.kinds);
    if (parsed.type === 'data') link.received(parsed.observations, at, true);
  };
  link.connection('CONNECTED', from);
  send(from, 'avail|AVAILABLE|execution|ACTIVE|mode|AUTOMATIC|program|O100|part_count|1');
  send(to - 20 * MIN, 'execution|READY');
  send(to - 10 * MIN, 'execution|ACTIVE');
  clock = to;
  await writer.flush();
  writer.close();
  expect(writer.buffered()).toEqual([]);
}

/**
 * Three hours of the machine's stored history up to `now`, with a job run in setup for 20 minutes half an hour in,
 * ended an hour before `now`: a worker started then gets its setup events before any data, and re-derives from storage
 * at its first data (decision 1065).
 */
export async function aHistoryWithSetup(
  db: Kysely<Database>,
  companyId: string,
  machineId: string,
  now: number,
): Promise<void> {
  const from = now - 3 * 60 * MIN;
  const setupAt = from + 30 * MIN;
  await aJobWithRun(companyScope(db, companyId), {
    machineId,
    name: 'J1',
    expected: MIN,
    ideal: MIN,
    jobCreatedAt: setupAt,
    start: setupAt,
    setupEnd: setupAt + 20 * MIN,
    end: now - 60 * MIN,
  });
  await aHistory(db, machineId, from, now, [
    { at: setupAt, value: 'START' },
    { at: setupAt + 20 * MIN, value: 'END' },
  ]);
}

// The replay CLI at full speed ('max'): no clock, no timer (INGEST_UNTIMED in vitest.config.ts). The replay at
// recorded speed is in replay-cli-realtime.test.ts, with the timed files.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { companyScope } from '@takt/db';
import { createAdapter } from '../../../api/src/repositories/adapters';
import { aCompany, aMachine } from '../../../api/src/testing/builders';
import { DIALECTS } from '@takt/db/testing';
import { guessField, parseReplayArgs, runReplay } from './replay-cli';
import { iso, replayFixture } from './replay-cli-fixture';

const data = (name: string) =>
  fileURLToPath(new URL(`../../../../../shared/data/mtconnect/${name}`, import.meta.url));
const HURCO = data('nist_2-1-2017-Hurco04-Clean.shdr.txt');
const NIST_DEVICES = data('nist_smstestbed_Devices.xml');
const OKUMA = data('cppagent_demo_okuma.shdr.txt');
const CPPAGENT_DEVICES = data('cppagent_demo_Devices.xml');

describe('replay arguments', () => {
  it('reads the documented options', () => {
    expect(
      parseReplayArgs([
        'log.shdr',
        '--devices',
        'D.xml',
        '--device',
        'Hurco04',
        '--machine',
        'M',
        '--speed',
        '10',
        '--json',
      ]),
    ).toEqual({
      file: 'log.shdr',
      devices: 'D.xml',
      device: 'Hurco04',
      machine: 'M',
      speed: 10,
      json: true,
    });
    expect(parseReplayArgs(['log.shdr'])).toMatchObject({ speed: 'max', json: false });
  });
  it.each([[[]], [['a', 'b']], [['a', '--speed', 'warp']], [['a', '--bogus']], [['a', '--devices']]])(
    'refuses %j with a message',
    (argv) => {
      expect(parseReplayArgs(argv)).toHaveProperty('error');
    },
  );
  it('guesses the meaning of well-known keys when there is no device description', () => {
    expect(guessField('Program_Status')?.type).toBe('EXECUTION');
    expect(guessField('pexecution')?.type).toBe('EXECUTION');
    expect(guessField('Part_Count')?.type).toBe('PART_COUNT');
    expect(guessField('Feed_Override')).toBeNull();
  });
});

describe.each(DIALECTS)('replay into %s', (dialect) => {
  const fx = replayFixture(dialect);

  it("keeps an existing machine's adapter and reads the log by its field mapping", async () => {
    const company = await aCompany(fx.t.db);
    const scope = companyScope(fx.t.db, company.id);
    const adapterId = await createAdapter(
      scope,
      {
        name: 'Shop mapping',
        fields: [
          {
            name: 'exec',
            dataItemType: 'EXECUTION',
            dataItemSubtype: null,
            componentName: 'path',
            componentType: 'Path',
          },
          {
            name: 'msg',
            dataItemType: 'MESSAGE',
            dataItemSubtype: null,
            componentName: 'path',
            componentType: 'Path',
          },
        ],
      },
      0,
    );
    const machineId = await aMachine(fx.t.db, company, { name: 'Lathe 2' });
    await scope
      .updateTable('machines')
      .set({ adapter_id: adapterId, cycle_source: 'part_count' })
      .where('id', '=', machineId)
      .execute();
    const t0 = Date.parse('2024-03-01T08:00:00Z');
    const file = fx.logFile([
      `${iso(t0)}|exec|ACTIVE|msg|M1|Door open|part_count|3`,
      `${iso(t0 + 60_000)}|exec|READY`,
    ]);
    const r = await runReplay(fx.t.db, { file, machine: 'Lathe 2', speed: 'max', json: true });
    expect(r).toMatchObject({
      machineId,
      lines: 2,
      observations: 4,
      rejected: 0,
      unmappedKeys: ['part_count'],
    });
    expect(r.stateMs.ACTIVE).toBe(60_000);
    const machine = await fx.t.db
      .selectFrom('machines')
      .select(['adapter_id', 'cycle_source'])
      .where('id', '=', machineId)
      .executeTakeFirstOrThrow();
    expect(machine).toEqual({ adapter_id: adapterId, cycle_source: 'part_count' });
    expect(await fx.t.db.selectFrom('adapters').select('id').execute()).toEqual([{ id: adapterId }]);
    const fields = await fx.t.db
      .selectFrom('adapter_fields')
      .select('name')
      .where('adapter_id', '=', adapterId)
      .execute();
    expect(fields.map((f) => f.name).sort()).toEqual(['exec', 'msg']);
    const msg = await fx.t.db
      .selectFrom('observations')
      .select('value')
      .where('machine_id', '=', machineId)
      .where('key', '=', 'msg')
      .execute();
    expect(msg).toEqual([{ value: 'Door open' }]);
  });

  it('replays the NIST Hurco04 log: every line, 9 broken ones, 10 parts in 10 cycles, states that tile the log', async () => {
    const r = await runReplay(fx.t.db, {
      file: HURCO,
      devices: NIST_DEVICES,
      device: 'Hurco04',
      speed: 'max',
      json: true,
    });
    expect(r).toMatchObject({ lines: 66_155, rejected: 9, cycles: 10, parts: 10 });
    expect(r.from).toBe(Date.parse('2017-02-01T12:18:02.234Z'));
    const total = Object.values(r.stateMs).reduce((a, b) => a + b, 0);
    expect(total).toBe(r.to! - r.from!);
    expect(r.stateMs.ACTIVE).toBeGreaterThan(0);
    // A recorded log stands for a connected adapter: quiet stretches are idle, not lost heartbeats.
    expect(r.stateMs.UNAVAILABLE).toBe(0);
    const stored = await fx.t.db
      .selectFrom('observations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('machine_id', '=', r.machineId)
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(r.observations);
  }, 120_000);

  it('derives the same in one pass (--cycles given) as with a first pass learning the log, adapter included', async () => {
    const learned = await runReplay(fx.t.db, { file: HURCO, machine: 'Hurco A', speed: 'max', json: true });
    const single = await runReplay(fx.t.db, {
      file: HURCO,
      machine: 'Hurco B',
      speed: 'max',
      json: true,
      cycles: 'part_count',
    });
    const summary = (r: typeof learned) => ({ ...r, machineId: undefined });
    expect(summary(single)).toEqual(summary(learned));
    expect(learned.cycles).toBe(10);
    const fieldsOf = async (machineId: string) =>
      (
        await fx.t.db
          .selectFrom('machines')
          .innerJoin('adapter_fields', 'adapter_fields.adapter_id', 'machines.adapter_id')
          .select(['adapter_fields.name', 'adapter_fields.data_item_type'])
          .where('machines.id', '=', machineId)
          .orderBy('adapter_fields.name')
          .execute()
      ).map((f) => `${f.name}:${f.data_item_type}`);
    expect(await fieldsOf(single.machineId)).toEqual(await fieldsOf(learned.machineId));
    expect((await fieldsOf(single.machineId)).length).toBeGreaterThan(0);
    expect(await fx.storedCount(single.machineId)).toBe(await fx.storedCount(learned.machineId));
  }, 120_000);

  it('replays the Okuma log with its concatenated runs through the device description', async () => {
    const r = await runReplay(fx.t.db, {
      file: OKUMA,
      devices: CPPAGENT_DEVICES,
      device: 'OKUMA',
      speed: 'max',
      json: true,
      cycles: 'execution',
    });
    expect(r.rejected).toBe(0);
    expect(r.cycles).toBeGreaterThan(0);
    // The log's asset records are not observations: the summary counts what was stored.
    expect(r.observations).toBe(await fx.storedCount(r.machineId));
    expect(Object.values(r.stateMs).reduce((a, b) => a + b, 0)).toBe(r.to! - r.from!);
  }, 120_000);
});

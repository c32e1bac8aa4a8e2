import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, freshDb } from '../../api/src/testing/db';
import type { TestDb } from '../../api/src/testing/db';
import { guessField, parseReplayArgs, runReplay } from './replay-cli';

const data = (name: string) =>
  fileURLToPath(new URL(`../../../../shared/data/mtconnect/${name}`, import.meta.url));
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
  let t: TestDb;
  beforeEach(async () => {
    t = await freshDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('replays the NIST Hurco04 log: every line, 9 broken ones, 10 parts in 10 cycles, states that tile the log', async () => {
    const r = await runReplay(t.db, {
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
    const stored = await t.db
      .selectFrom('observations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('machine_id', '=', r.machineId)
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(r.observations);
  }, 120_000);

  it('replays the Okuma log with its concatenated runs through the device description', async () => {
    const r = await runReplay(t.db, {
      file: OKUMA,
      devices: CPPAGENT_DEVICES,
      device: 'OKUMA',
      speed: 'max',
      json: true,
      cycles: 'execution',
    });
    expect(r.rejected).toBe(0);
    expect(r.cycles).toBeGreaterThan(0);
    expect(Object.values(r.stateMs).reduce((a, b) => a + b, 0)).toBe(r.to! - r.from!);
  }, 120_000);
});

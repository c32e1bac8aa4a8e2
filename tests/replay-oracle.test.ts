// METRICS.md §1 on real logs: replaying each real log gives the state seconds of an independent reading
// (tests/oracle/shdr-reading.ts, decision 0111), to the millisecond, on every dialect.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DIALECTS, freshDb } from '@takt/db/testing';
import { loadRollupSource } from '@takt/db/rollups';
import {
  buildRollups,
  epochMs,
  NO_DATA_REASON,
  rollupBuckets,
  sumRollups,
  UNCATEGORIZED_REASON,
} from '@takt/domain';
import type { CompanyCalendar } from '@takt/domain';
import type { TestDb } from '@takt/db/testing';
import { runReplay } from '../services/ingest/src/replay/replay-cli';
import { readDevice, readShdrLog } from './oracle/shdr-reading';
import type { OracleReading } from './oracle/shdr-reading';

const shared = (name: string) =>
  fileURLToPath(new URL(`../../shared/data/mtconnect/${name}`, import.meta.url));
const fetched = (name: string) => fileURLToPath(new URL(`./fixtures/mtconnect/${name}`, import.meta.url));

const UTC: CompanyCalendar = { timezone: 'UTC', shifts: [] };

const NIST_DEVICES = shared('nist_smstestbed_Devices.xml');
const CPPAGENT_DEVICES = shared('cppagent_demo_Devices.xml');

interface Log {
  name: string;
  file: string;
  devices: string;
  device: string;
}

const MAZAK01 = fetched('nist_mtc_adapter002_Mazak01.shdr.txt');

/**
 * A log shaped like Mazak01's full days (METRICS.md §1, decision 1000): the real fixture's connect header
 * (every item UNAVAILABLE, availability sent once by its id and never again) moved to 11:08:00, the real
 * 11:09:06.764 values and samples as they are, then 90 minutes in cycle: 18 cycles of 5 min ACTIVE and 20 s
 * STOPPED from 11:12:00, the part counter +1 at each stop, and a last sample at 12:50:00.
 */
function mazak01Shaped(): string {
  const real = readFileSync(MAZAK01, 'utf8').trimEnd().split('\n');
  const HEADER = '2018-08-29T05:00:00.000000Z|';
  const lines = real.map((l) =>
    l.startsWith(HEADER) ? `2018-08-29T11:08:00.000000Z|${l.slice(HEADER.length)}` : l,
  );
  const stamp = (ms: number) => new Date(ms).toISOString().replace('Z', '000Z');
  const start = Date.parse('2018-08-29T11:12:00Z');
  lines.push(`${stamp(start)}|mode|AUTOMATIC|program|1001`);
  for (let i = 0; i < 18; i++) {
    const s = start + i * 320_000;
    lines.push(`${stamp(s)}|execution|ACTIVE|Srpm|1500`);
    lines.push(`${stamp(s + 300_000)}|execution|STOPPED|Srpm|0|PartCountAct|${i + 1}`);
  }
  lines.push(`${stamp(Date.parse('2018-08-29T12:50:00Z'))}|total_time|48789491`);
  return `${lines.join('\n')}\n`;
}
const scratch = mkdtempSync(join(tmpdir(), 'takt-replay-oracle-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const MAZAK01_SHAPED = join(scratch, 'mazak01-shaped.shdr.txt');
writeFileSync(MAZAK01_SHAPED, mazak01Shaped());

const LOGS: Log[] = [
  {
    name: 'Okuma (cppagent demo)',
    file: shared('cppagent_demo_okuma.shdr.txt'),
    devices: CPPAGENT_DEVICES,
    device: 'OKUMA',
  },
  {
    name: 'Hurco04 (NIST, 2017-02-01)',
    file: shared('nist_2-1-2017-Hurco04-Clean.shdr.txt'),
    devices: NIST_DEVICES,
    device: 'Hurco04',
  },
  {
    name: 'Mazak03 (NIST adapter 004, 2016-05-26)',
    file: fetched('nist_mtc_adapter004_Mazak03.shdr.txt'),
    devices: NIST_DEVICES,
    device: 'Mazak03',
  },
  {
    name: 'Mazak01 (NIST adapter 002, 2018-08-29)',
    file: MAZAK01,
    devices: NIST_DEVICES,
    device: 'Mazak01',
  },
  {
    name: 'Mazak01-shaped: availability UNAVAILABLE once in the header, then 90 minutes in cycle',
    file: MAZAK01_SHAPED,
    devices: NIST_DEVICES,
    device: 'Mazak01',
  },
  {
    name: 'Hurco02 (NIST clean day log, 2017-02-01)',
    file: fetched('nist_2-1-2017-Hurco02-Clean.shdr.txt'),
    devices: NIST_DEVICES,
    device: 'Hurco02',
  },
  {
    name: 'Hurco02 (NIST box part 1 of 20, 2017-02-02)',
    file: fetched('nist_Box-Hurco02-01of20.shdr.txt'),
    devices: NIST_DEVICES,
    device: 'Hurco02',
  },
  {
    name: 'GFAgie01 (NIST raw agent log, 2016-10-12)',
    file: fetched('nist_GFAgie01-20161012-20161013.shdr.txt'),
    devices: NIST_DEVICES,
    device: 'GFAgie01',
  },
];

const readings = new Map<string, OracleReading>();
const readingOf = (log: Log): OracleReading => {
  let r = readings.get(log.file);
  if (!r) {
    r = readShdrLog(
      readFileSync(log.file, 'utf8'),
      readDevice(readFileSync(log.devices, 'utf8'), log.device),
    );
    readings.set(log.file, r);
  }
  return r;
};

describe('the independent reading itself', () => {
  const DEVICE = readDevice(
    `<Devices><Device name="M" uuid="m1" id="m"><DataItems>
      <DataItem category="EVENT" id="m_avail" name="avail" type="AVAILABILITY"/>
      <DataItem category="EVENT" id="m_exec" name="exec" type="EXECUTION"/>
      <DataItem category="CONDITION" id="m_sys" name="system" type="SYSTEM"/>
      <DataItem category="EVENT" id="m_msg" name="msg" type="MESSAGE"/>
      <!-- <DataItem category="EVENT" id="gone" name="gone" type="EXECUTION"/> -->
    </DataItems></Device></Devices>`,
    'M',
  );
  const read = (lines: string[]) => readShdrLog(lines.join('\n'), DEVICE);

  it('holds each value until it changes, whatever the gap, with the METRICS.md §1 precedence', () => {
    const r = read([
      '2024-01-01T00:00:00Z|avail|AVAILABLE|gone|ACTIVE',
      '2024-01-01T00:00:10Z|exec|READY',
      '2024-01-01T00:00:20Z|system|FAULT|E1||HIGH|Overheat|exec|READY',
      '2024-01-01T00:00:30Z|exec|ACTIVE',
      '2024-01-01T00:00:40Z|exec|STOPPED',
      '2024-01-01T00:00:50Z|system|NORMAL|E1|||',
      '2024-01-01T05:00:50Z|msg|7|a note|exec|unavailable',
      '2024-01-01T05:01:00Z|avail|UNAVAILABLE|exec|ACTIVE',
      '2024-01-01T05:01:10Z|avail|AVAILABLE',
    ]);
    expect(r.stateMs).toEqual({
      UNAVAILABLE: 10_000 + 10_000 + 10_000,
      INACTIVE: 10_000 + 5 * 3_600_000,
      FAULT: 10_000 + 10_000,
      ACTIVE: 10_000,
      SETUP: 0,
    });
    expect(r.timeline.map((e) => e.state)).toEqual([
      'UNAVAILABLE',
      'INACTIVE',
      'FAULT',
      'ACTIVE',
      'FAULT',
      'INACTIVE',
      'UNAVAILABLE',
      'ACTIVE',
    ]);
  });

  it('orders by timestamp (file order on ties) and reads no commands, assets or broken lines', () => {
    const r = read([
      '* PONG 10000',
      '2024-01-01T00:01:00.9999Z|exec|READY',
      '2024-01-01T00:00:00Z|exec|ACTIVE',
      '2024-01-01T00:00:30Z|@ASSET@|T1|CuttingTool|--multiline--AB',
      '2024-01-01T23:00:00Z|exec|READY',
      '--multiline--AB',
      '2024',
      '2024-01-01T00:00:30Z|exec|READY|exec|ACTIVE',
    ]);
    expect(r).toMatchObject({
      from: Date.parse('2024-01-01T00:00:00Z'),
      to: Date.parse('2024-01-01T00:01:00.999Z'),
    });
    expect(r.stateMs.ACTIVE).toBe(60_999);
    expect(r.skippedLines).toBe(1);
    expect(r.dataLines).toBe(3);
  });

  it('newest evidence wins: an availability UNAVAILABLE holds until the device reports at a later instant', () => {
    const r = read([
      '2024-01-01T00:00:00Z|avail|UNAVAILABLE|exec|UNAVAILABLE',
      '2024-01-01T00:00:10Z|exec|READY',
      '2024-01-01T00:00:20Z|exec|ACTIVE',
      '2024-01-01T00:00:30Z|avail|UNAVAILABLE',
      '2024-01-01T00:00:40Z|avail|UNAVAILABLE|exec|READY',
      '2024-01-01T00:00:50Z|exec|READY',
    ]);
    expect(r.stateMs).toMatchObject({ UNAVAILABLE: 10_000 + 20_000, ACTIVE: 10_000, INACTIVE: 10_000 });
  });

  it('reads the Mazak01 logs as the machine reported them (METRICS.md §1, decision 1000)', () => {
    // The real day: UNAVAILABLE through the header and the 6 h 9 min gap, idle (STOPPED) from 11:09:06.764.
    const real = readingOf(LOGS.find((l) => l.file === MAZAK01)!);
    expect(real.stateMs).toEqual({
      UNAVAILABLE: Date.parse('2018-08-29T11:09:06.764Z') - Date.parse('2018-08-29T05:00:00Z'),
      INACTIVE: 155_484,
      ACTIVE: 0,
      FAULT: 0,
      SETUP: 0,
    });
    // The 90 minutes in cycle read as cycle, not as an unavailable machine.
    const shaped = readingOf(LOGS.find((l) => l.file === MAZAK01_SHAPED)!);
    expect(shaped.stateMs.UNAVAILABLE).toBe(66_764);
    expect(shaped.stateMs.ACTIVE).toBe(90 * 60_000);
    expect(shaped.stateMs.INACTIVE).toBe(102 * 60_000 - 90 * 60_000 - 66_764);
  });

  it.each(LOGS)('tiles the window of $name with its states', (log) => {
    const r = readingOf(log);
    expect(r.from).not.toBeNull();
    const total = Object.values(r.stateMs).reduce((a, b) => a + b, 0);
    expect(total).toBe(r.to! - r.from!);
  });
});

describe.each(DIALECTS)('replay on %s gives the state seconds of the independent reading', (dialect) => {
  let t: TestDb | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  for (const log of LOGS) {
    it(
      log.name,
      async () => {
        const expected = readingOf(log);
        t = await freshDb(dialect);
        const r = await runReplay(t.db, {
          file: log.file,
          devices: log.devices,
          device: log.device,
          machine: log.device,
          speed: 'max',
          json: true,
        });
        // The same window (first and last timestamp of the log), tiled by the states without a gap.
        expect({ from: r.from, to: r.to }).toEqual({ from: expected.from, to: expected.to });
        expect(Object.values(r.stateMs).reduce((a, b) => a + b, 0)).toBe(expected.to! - expected.from!);
        expect(r.stateMs).toEqual(expected.stateMs);
        if (log.file === MAZAK01_SHAPED) expect(r.cycles).toBe(18);
        // METRICS.md §1 through the rollups, over a range starting a day before the log: T_all is the
        // monitored life only, and the UNAVAILABLE time in it is No data, apart from Uncategorized.
        const range = { start: epochMs(expected.from! - 86_400_000), end: epochMs(expected.to!) };
        const { company_id: companyId } = await t.db
          .selectFrom('machines')
          .select('company_id')
          .where('id', '=', r.machineId)
          .executeTakeFirstOrThrow();
        const source = await loadRollupSource({ db: t.db, companyId }, r.machineId, range);
        const sum = sumRollups(buildRollups(source, rollupBuckets(UTC, range)), range).all;
        expect(sum.durationMs).toBe(expected.monitoredMs);
        const ms = (reason: string) => {
          const d = sum.downtimeByReason[reason];
          return d ? d.plannedMs + d.unplannedMs : 0;
        };
        expect(ms(NO_DATA_REASON)).toBe(expected.noDataMs);
        expect(ms(UNCATEGORIZED_REASON)).toBe(expected.stateMs.INACTIVE + expected.stateMs.FAULT);
      },
      60_000,
    );
  }
});

import { afterEach, describe, expect, it } from 'vitest';
import type { Observation, ShdrLine } from '../sources/shdr/shdr';
import type { ShdrStatus } from '../sources/shdr/shdr-client';
import { ShdrClient } from '../sources/shdr/shdr-client';
import type { DemoMachine, DemoPlantOptions, DemoProfile } from './simulator';
import { CONDITION_NORMAL } from './demo-script';
import { DEMO_KEYS, demoMachineScript, startDemoPlant } from './simulator';
import { demoDevicesXml } from '../testing/xml';
import { waitFor } from '../testing/test-support';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const QUIET: Partial<DemoProfile> = {
  faultChance: 0,
  outageChance: 0,
  holdChance: 0,
  programChangeChance: 0,
  longBreakChance: 0,
};

async function plant(machines: Array<Partial<DemoMachine>>, options: Partial<DemoPlantOptions> = {}) {
  const sent: Array<{ name: string; line: string }> = [];
  const started = await startDemoPlant({
    machines: machines.map((m, i) => ({ name: `M${i + 1}`, port: 0, seed: i + 1, ...m })),
    speed: 50,
    onLine: (name, line) => sent.push({ name, line }),
    ...options,
  });
  cleanups.push(() => started.stop());
  return { ...started, sent };
}

function connect(port: number) {
  const lines: ShdrLine[] = [];
  const statuses: ShdrStatus[] = [];
  const client = new ShdrClient({
    host: '127.0.0.1',
    port,
    backoff: { initialMs: 10, maxMs: 50 },
    onLine: (line) => lines.push(line),
    onStatus: (status) => statuses.push(status),
  });
  cleanups.push(() => client.stop());
  client.start();
  const observations = (): Observation[] => lines.flatMap((l) => (l.type === 'data' ? l.observations : []));
  return { client, lines, statuses, observations };
}

describe('demo plant simulator', () => {
  it('answers PING with PONG, sends a full snapshot on connect, then timestamped changes', async () => {
    const demo = await plant([{}], { heartbeatMs: 1_000 });
    const port = demo.adapters[0]?.port ?? 0;
    expect(port).toBeGreaterThan(0);
    const { client, lines } = connect(port);
    await waitFor(() => client.heartbeatMs === 1_000, 5_000, 'PONG');

    const data = () => lines.filter((l) => l.type === 'data');
    await waitFor(() => data().length >= 4, 10_000, 'a snapshot and changes');
    const [snapshot, condition] = data();
    expect(snapshot?.type === 'data' && snapshot.observations.map((o) => o.key)).toEqual([
      'avail',
      'execution',
      'mode',
      'program',
      'part_count',
      'Sspeed',
      'path_feedrate',
    ]);
    expect(condition?.type === 'data' && condition.observations[0]).toMatchObject({
      key: 'system',
      kind: 'condition',
      value: 'NORMAL',
    });
    const change = data()[2];
    expect(change?.type === 'data' && change.rejected).toBe(0);
    expect(Math.abs((change?.type === 'data' ? change.ts : 0) - Date.now())).toBeLessThan(60_000); // real-time UTC stamps
    expect(demo.sent.length).toBeGreaterThan(0);
    expect(demo.sent[0]?.line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\|/);
  });

  it('counts a part at each cycle end', async () => {
    const demo = await plant([{ profile: { ...QUIET, cycleMs: [30_000, 30_000], idleMs: [1_000, 2_000] } }], {
      speed: 400,
    });
    const { observations } = connect(demo.adapters[0]?.port ?? 0);
    const counts = () =>
      observations()
        .filter((o) => o.key === 'part_count')
        .map((o) => Number(o.value));
    await waitFor(() => counts().length >= 3, 10_000, 'two cycle ends');
    const [initial = 0, first, second] = counts();
    expect([first, second]).toEqual([initial + 1, initial + 2]);
    const completed = observations().filter((o) => o.key === 'execution' && o.value === 'PROGRAM_COMPLETED');
    expect(completed.length).toBeGreaterThanOrEqual(2);
  });

  it('sends the same changes for the same seed', async () => {
    const demo = await plant([{ seed: 99 }, { seed: 99 }, { seed: 100 }], { speed: 500 });
    const byMachine = (name: string) =>
      demo.sent.filter((s) => s.name === name).map((s) => s.line.replace(/^[^|]*\|/, ''));
    await waitFor(
      () => byMachine('M1').length >= 8 && byMachine('M2').length >= 8 && byMachine('M3').length >= 8,
      10_000,
    );
    expect(byMachine('M2').slice(0, 8)).toEqual(byMachine('M1').slice(0, 8));
    expect(byMachine('M3').slice(0, 8)).not.toEqual(byMachine('M1').slice(0, 8));
  });

  it('raises a FAULT condition with code and message, then clears it with NORMAL', async () => {
    const demo = await plant(
      [{ profile: { ...QUIET, faultChance: 1, faultMs: [5_000, 5_000], cycleMs: [30_000, 30_000] } }],
      { speed: 400 },
    );
    const { observations } = connect(demo.adapters[0]?.port ?? 0);
    const conditions = () => observations().filter((o) => o.kind === 'condition');
    await waitFor(() => conditions().length >= 3, 10_000, 'a fault and its clear');
    const [, fault, clear] = conditions();
    expect(fault?.condition).toMatchObject({ level: 'FAULT', nativeCode: expect.stringMatching(/^E\d+$/) });
    expect(fault?.condition?.message).not.toBe('');
    expect(clear?.condition).toEqual({
      level: 'NORMAL',
      nativeCode: '',
      nativeSeverity: '',
      qualifier: '',
      message: '',
    });
  });

  it('refuses connections during a network outage, then takes clients again with a fresh snapshot', async () => {
    const profile = {
      ...QUIET,
      outageChance: 1,
      outageKinds: ['refuse' as const],
      cycleMs: [30_000, 30_000] as [number, number],
    };
    const demo = await plant([{ profile }], { speed: 200 });
    const { statuses, lines } = connect(demo.adapters[0]?.port ?? 0);
    await waitFor(() => statuses.filter((s) => s === 'CONNECTED').length >= 2, 10_000, 'drop and return');
    expect(statuses).toContain('DISCONNECTED');
    const snapshots = lines.filter((l) => l.type === 'data' && l.observations.length === 7);
    await waitFor(
      () => lines.filter((l) => l.type === 'data' && l.observations.length === 7).length >= 2,
      5_000,
      'second snapshot',
    );
    expect(snapshots.length).toBeGreaterThanOrEqual(1);
  });

  it('goes silent when hung, so a heartbeat client drops it and comes back', async () => {
    const profile = {
      ...QUIET,
      outageChance: 1,
      outageKinds: ['silent' as const],
      outageMs: [60_000, 60_000] as [number, number],
    };
    const demo = await plant([{ profile, seed: 5 }], { speed: 200, heartbeatMs: 40 });
    const { statuses } = connect(demo.adapters[0]?.port ?? 0);
    await waitFor(() => statuses.includes('DISCONNECTED'), 10_000, 'the heartbeat timeout');
    await waitFor(() => statuses.filter((s) => s === 'CONNECTED').length >= 2, 10_000, 'the reconnect');
  });

  it('reports a powered-off machine as UNAVAILABLE values', async () => {
    const profile = { ...QUIET, outageChance: 1, outageKinds: ['power_off' as const] };
    const demo = await plant([{ profile }], { speed: 400 });
    const { observations } = connect(demo.adapters[0]?.port ?? 0);
    await waitFor(
      () => observations().some((o) => o.key === 'avail' && o.value === null),
      10_000,
      'avail UNAVAILABLE',
    );
    expect(observations().some((o) => o.key === 'system' && o.kind === 'condition' && o.value === null)).toBe(
      true,
    );
  });

  it('goes on from where a history left its script: that state on connect, then its next step', async () => {
    const script = demoMachineScript(42, QUIET);
    script.next(); // the history began with the first step
    const values = {
      avail: 'AVAILABLE',
      execution: 'STOPPED',
      mode: 'AUTOMATIC',
      program: 'O24101',
      part_count: '1234',
      Sspeed: '0',
      path_feedrate: '0',
    };
    const next = { step: { afterMs: 5, set: { execution: 'ACTIVE' } }, at: Date.now() + 100_000 };
    const demo = await plant([{ resume: { script, values, condition: CONDITION_NORMAL, next } }]);
    const { observations } = connect(demo.adapters[0]?.port ?? 0);
    const value = (key: string) => observations().find((o) => o.key === key)?.value;
    await waitFor(() => value('part_count') !== undefined, 5_000, 'the snapshot');
    expect([value('program'), value('part_count'), value('execution')]).toEqual([
      'O24101',
      '1234',
      'STOPPED',
    ]);
    // The step after the history comes at its own time (100 s of plant time: 2 s at 50×), then the script goes on.
    await waitFor(() => demo.sent.length >= 3, 10_000, 'the script going on');
    expect(demo.sent[0]?.line).toMatch(/\|execution\|ACTIVE$/);
  });

  it('stop() closes every adapter', async () => {
    const demo = await startDemoPlant({ machines: [{ name: 'A', port: 0, seed: 1 }], speed: 50 });
    const { statuses } = connect(demo.adapters[0]?.port ?? 0);
    await waitFor(() => statuses.includes('CONNECTED'));
    await demo.stop();
    await waitFor(() => statuses.at(-1) === 'DISCONNECTED', 5_000, 'the client to notice');
  });
});

describe('demoDevicesXml', () => {
  it('describes every demo key for every machine', () => {
    const xml = demoDevicesXml(['Mill 1', 'Lathe <2>']);
    expect(xml.match(/<Device /g)).toHaveLength(2);
    expect(xml).toContain('name="Lathe &lt;2&gt;"');
    for (const key of Object.keys(DEMO_KEYS))
      expect(xml.match(new RegExp(`name="${key}"`, 'g'))).toHaveLength(2);
  });
});

import { readFileSync } from 'node:fs';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdapterField, ExistingAdapter } from './adapter-import';
import { importAdapter, matchAdapter, pickDevice, sameField, sampleFields } from './adapter-import';
import { demoAdapterFields } from '../../demo/demo-adapter';
import type { Device } from './devices';
import { parseDevicesXml } from './devices';
import type { DemoPlant } from '../../demo/simulator';
import { startDemoPlant } from '../../demo/simulator';
import { demoDevicesXml } from '../../testing/xml';
import { waitFor } from '../../testing/test-support';

function mtconnectFile(name: string): string {
  return readFileSync(new URL(`../../../../../../shared/data/mtconnect/${name}`, import.meta.url), 'utf8');
}

/** The first `n` lines of a real log, as an admin would paste them. */
function head(file: string, n: number): string {
  return mtconnectFile(file).split('\n').slice(0, n).join('\n');
}

function device(devices: Device[], name: string): Device {
  const found = devices.find((d) => d.name === name);
  if (!found) throw new Error(`no device ${name}`);
  return found;
}

const cppagent = parseDevicesXml(mtconnectFile('cppagent_demo_Devices.xml'));
const nist = parseDevicesXml(mtconnectFile('nist_smstestbed_Devices.xml'));
const okumaSample = head('cppagent_demo_okuma.shdr.txt', 400);
const hurcoSample = head('nist_2-1-2017-Hurco04-Clean.shdr.txt', 2_000);
const okuma = device(cppagent, 'OKUMA');
const hurco04 = device(nist, 'Hurco04');

const adapter = (id: string, fields: readonly AdapterField[]): ExistingAdapter => ({ id, name: id, fields });

describe('sampleFields', () => {
  it('resolves the Okuma keys by DataItem name, skipping assets and commands', () => {
    const s = sampleFields(okuma.dataItems, okumaSample);
    const byName = new Map(s.fields.map((f) => [f.name, f]));
    expect(byName.get('pexecution')).toEqual({
      name: 'pexecution',
      dataItemType: 'EXECUTION',
      dataItemSubtype: null,
      componentName: 'Controller',
      componentType: 'Controller',
    });
    expect(byName.get('avail')).toMatchObject({
      dataItemType: 'AVAILABILITY',
      componentName: 'Device',
      componentType: 'Device',
    });
    expect(byName.get('S1speed')).toMatchObject({ dataItemType: 'ROTARY_VELOCITY', componentType: 'Rotary' });
    expect(byName.get('system')).toMatchObject({ dataItemType: 'SYSTEM' });
    expect(s.fields.some((f) => f.name.startsWith('@'))).toBe(false);
    expect(new Set(s.fields.map((f) => f.name)).size).toBe(s.fields.length);
    expect(s.fields.length).toBeGreaterThan(60);
  });

  it('resolves every key of the Hurco04 log, Program_Status as EXECUTION', () => {
    const s = sampleFields(hurco04.dataItems, hurcoSample);
    const byName = new Map(s.fields.map((f) => [f.name, f]));
    expect(byName.get('Program_Status')).toMatchObject({ dataItemType: 'EXECUTION', componentType: 'Path' });
    expect(byName.get('Part_Count')).toMatchObject({ dataItemType: 'PART_COUNT' });
    for (const f of s.fields) expect(f.componentName).not.toBe('');
    expect(s.unresolvedKeys).toEqual([]);
    expect(s.fields).toHaveLength(15);
  });

  it('resolves a key through <Source> when neither id nor name matches (Mazak03 S1load ← Sload)', () => {
    const s = sampleFields(device(nist, 'Mazak03').dataItems, 'x|Sload|12');
    expect(s.fields).toEqual([
      {
        name: 'Sload',
        dataItemType: 'LOAD',
        dataItemSubtype: null,
        componentName: expect.any(String),
        componentType: 'Rotary',
      },
    ]);
  });

  it('picks the device the sample talks about from a description of several', () => {
    expect(pickDevice(cppagent, okumaSample)?.name).toBe('OKUMA');
    expect(pickDevice(cppagent, 'x|nothing|known')).toBeNull();
  });
});

describe('importAdapter on the Okuma sample and the cppagent Devices.xml', () => {
  const fields = sampleFields(okuma.dataItems, okumaSample).fields;
  const hurcoFields = sampleFields(hurco04.dataItems, hurcoSample).fields;
  const installDate: AdapterField = {
    name: 'ApplicationInstallDate',
    dataItemType: 'APPLICATION',
    dataItemSubtype: 'INSTALL_DATE',
    componentName: 'Device',
    componentType: 'Device',
  };

  it('exact: an adapter with exactly these fields → Select', () => {
    const shuffled = [...fields].reverse().map((f) => ({ ...f, dataItemType: f.dataItemType.toLowerCase() }));
    const result = importAdapter(okuma.dataItems, okumaSample, [
      adapter('hurco', hurcoFields),
      adapter('okuma', [...shuffled, installDate]),
    ]);
    // The Okuma sends a key its description lacks; the adapter's own field for it makes the match exact.
    expect(result.unresolvedKeys).toEqual(['ApplicationInstallDate']);
    expect(result).toMatchObject({
      outcome: 'exact',
      adapter: { id: 'okuma' },
      actions: ['select'],
      unmatchedItems: [],
      extraneousItems: [],
    });
  });

  it('partial: the adapter sharing most fields, with missing and extra items → Select or Clone & Modify', () => {
    const half = fields.slice(0, Math.floor(fields.length / 2));
    const changed = { ...fields[0]!, dataItemType: 'PROGRAM' };
    const extra: AdapterField = {
      name: 'coolant',
      dataItemType: 'COOLANT',
      dataItemSubtype: null,
      componentName: 'Device',
      componentType: 'Device',
    };
    const result = importAdapter(okuma.dataItems, okumaSample, [
      adapter('few', fields.slice(0, 3)),
      adapter('half', [changed, ...half.slice(1), extra]),
      adapter('demo', demoAdapterFields()),
    ]);
    if (result.outcome !== 'partial') throw new Error(`expected partial, got ${result.outcome}`);
    expect(result.adapter.id).toBe('half');
    expect(result.actions).toEqual(['select', 'clone']);
    expect(result.matched).toBe(half.length - 1);
    expect(result.missing.map((f) => f.name)).toEqual([
      fields[0]!.name,
      ...fields.slice(half.length).map((f) => f.name),
    ]);
    expect(result.extra).toEqual([changed, extra]);
    expect(result.unmatchedItems).toEqual([...result.missing.map((f) => f.name), 'ApplicationInstallDate']);
    expect(result.extraneousItems).toEqual([fields[0]!.name, 'coolant']);
  });

  it('none: no adapter shares a field → Create with the proposed fields', () => {
    // `avail` on the Device is the one field every MTConnect adapter shares; without it nothing matches.
    const withoutAvail = (list: readonly AdapterField[]) => list.filter((f) => f.name !== 'avail');
    const result = importAdapter(okuma.dataItems, okumaSample, [
      adapter('hurco', withoutAvail(hurcoFields)),
      adapter('demo', withoutAvail(demoAdapterFields())),
    ]);
    expect(result).toMatchObject({
      outcome: 'none',
      actions: ['create'],
      proposed: fields,
      extraneousItems: [],
    });
    expect(result.unmatchedItems).toEqual([...fields.map((f) => f.name), 'ApplicationInstallDate']);
  });

  it('none when there are no adapters yet', () => {
    expect(importAdapter(okuma.dataItems, okumaSample, []).outcome).toBe('none');
  });
});

describe('importAdapter on the Hurco04 sample and the NIST Devices.xml', () => {
  it('an adapter made from Hurco01 is an exact match for Hurco04: one adapter per kind of machine', () => {
    const hurco01 = sampleFields(device(nist, 'Hurco01').dataItems, hurcoSample).fields;
    const result = importAdapter(hurco04.dataItems, hurcoSample, [adapter('hurco', hurco01)]);
    expect(result).toMatchObject({ outcome: 'exact', adapter: { id: 'hurco' } });
  });

  it('the Mazak adapter only partly fits the Hurco, and shows what differs', () => {
    const mazakSample = 'x|avail|AVAILABLE|execution|ACTIVE|Sspeed|100';
    const mazak = device(nist, 'Mazak01');
    const mazakFields = sampleFields(mazak.dataItems, mazakSample).fields;
    const result = importAdapter(hurco04.dataItems, hurcoSample, [adapter('mazak', mazakFields)]);
    expect(result.outcome).toBe('partial');
    expect(result.unmatchedItems).toContain('Program_Status');
  });

  it('an unresolved key still matches an adapter field of that name', () => {
    const sample = 'x|Program_Status|ACTIVE|custom_key|7';
    const s = sampleFields(hurco04.dataItems, sample);
    expect(s.unresolvedKeys).toEqual(['custom_key']);
    const custom: AdapterField = {
      name: 'custom_key',
      dataItemType: 'x',
      dataItemSubtype: null,
      componentName: 'p',
      componentType: 'Path',
    };
    expect(matchAdapter(s, [adapter('a', [...s.fields, custom])]).outcome).toBe('exact');
    expect(matchAdapter(s, [adapter('b', s.fields)])).toMatchObject({
      outcome: 'partial',
      unmatchedItems: ['custom_key'],
      extraneousItems: [],
    });
  });
});

describe('importAdapter on the demo plant', () => {
  let plant: DemoPlant;
  beforeAll(async () => {
    plant = await startDemoPlant({ machines: [{ name: 'Mill 1', port: 0, seed: 7 }] });
  });
  afterAll(async () => {
    await plant.stop();
  });

  /** What the simulated adapter sends a client on connect, captured from its socket. */
  async function simulatorSample(): Promise<string> {
    const socket = net.connect({ host: '127.0.0.1', port: plant.adapters[0]!.port });
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString()));
    await waitFor(() => text.split('\n').length > 2, 5_000, 'the snapshot');
    socket.destroy();
    return text;
  }

  it('the demo adapter fields are an exact match for the demo Devices.xml and a simulator sample', async () => {
    const sample = await simulatorSample();
    const demo = device(parseDevicesXml(demoDevicesXml(['Mill 1'])), 'Mill 1');
    const result = importAdapter(demo.dataItems, sample, [adapter('demo', demoAdapterFields())]);
    expect(result).toMatchObject({ outcome: 'exact', unresolvedKeys: [], rejected: 0 });
    expect(result.fields).toHaveLength(demoAdapterFields().length);
  });
});

describe('sameField', () => {
  const f: AdapterField = {
    name: 'a',
    dataItemType: 'EXECUTION',
    dataItemSubtype: null,
    componentName: 'path',
    componentType: 'Path',
  };
  it.each([
    [{}, true],
    [{ dataItemType: 'execution' }, true],
    [{ dataItemSubtype: '' }, true],
    [{ name: 'A' }, false],
    [{ dataItemSubtype: 'ACTUAL' }, false],
    [{ componentName: 'path2' }, false],
    [{ componentType: 'Controller' }, false],
  ])('%j → %s', (change, same) => {
    expect(sameField(f, { ...f, ...change })).toBe(same);
  });
});

import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createKeyResolver, keyKindOf, keyKindsFrom, parseDevicesXml, resolverForDevice } from './devices';
import { parseShdrLine, splitShdrStream } from '../shdr/shdr';
import { DEMO_KEYS } from '../../demo/simulator';
import { demoDevicesXml } from '../../testing/xml';

function mtconnectFile(name: string): string {
  return readFileSync(new URL(`../../../../../../shared/data/mtconnect/${name}`, import.meta.url), 'utf8');
}

const nist = parseDevicesXml(mtconnectFile('nist_smstestbed_Devices.xml'));
const cppagent = parseDevicesXml(mtconnectFile('cppagent_demo_Devices.xml'));

/** Every distinct key the log sends (assets aside). */
function keysOf(file: string): Set<string> {
  const splitter = splitShdrStream();
  const keys = new Set<string>();
  for (const raw of [...splitter.push(mtconnectFile(file)), ...splitter.end()]) {
    const line = parseShdrLine(raw, 0);
    if (line.type === 'data') for (const o of line.observations) if (o.kind !== 'asset') keys.add(o.key);
  }
  return keys;
}

describe('parseDevicesXml', () => {
  it('reads every device and data item of the MTConnect 1.3 NIST file', () => {
    expect(nist.map((d) => d.name)).toEqual([
      'GFAgie01',
      'Mazak01',
      'Mazak03',
      'Hurco01',
      'Hurco02',
      'Hurco03',
      'Hurco04',
      'Hurco06',
    ]);
    expect(nist.flatMap((d) => d.dataItems)).toHaveLength(226);
  });

  it('reads every device and data item of the MTConnect 2.7 cppagent file', () => {
    expect(cppagent.map((d) => [d.name, d.uuid])).toEqual([
      ['OKUMA', 'OKUMA.123456'],
      ['Mazak', 'Mazak'],
    ]);
    expect(cppagent.flatMap((d) => d.dataItems)).toHaveLength(216);
    // A DataItem with <Filters> children is still one item, owned by its component.
    expect(createKeyResolver(cppagent[1]?.dataItems ?? [])('Sload')).toMatchObject({
      type: 'LOAD',
      componentType: 'Rotary',
      componentName: 'C1',
    });
  });

  it('records component, device and <Source>', () => {
    const item = resolverForDevice(nist, 'Mazak03')('Sload');
    expect(item).toEqual({
      id: 'Mazak03-S_3',
      name: 'S1load',
      type: 'LOAD',
      subType: null,
      category: 'SAMPLE',
      representation: null,
      units: 'PERCENT',
      componentType: 'Rotary',
      componentName: 'S',
      componentId: 'Mazak03-S_1',
      deviceName: 'Mazak03',
      deviceUuid: 'mtc_adapter004',
      source: 'Sload',
    });
  });

  it('handles prefixes, entities, comments, CDATA and broken markup without throwing', () => {
    const xml = `<?xml version="1.0"?><!-- <Device name="commented"/> --><m:MTConnectDevices><m:Devices>
      <m:Device name="A &amp; B" uuid='u1' id="d1"><m:DataItems>
        <m:DataItem id="x" type="EXECUTION" category="EVENT"><m:Source><![CDATA[exec]]></m:Source></m:DataItem>
        <m:DataItem id="y" category="EVENT"/><m:DataItem id="z" type="MESSAGE" category="EVENT" name="msg"/>
        <m:DataItem id="s" type="SYSTEM" category="CONDITION"><Source componentId="c"/></m:DataItem>
        <m:DataItem id="t" type="PART_COUNT" category="EVENT" name="after"/>
      < broken </m:DataItems></m:Device></m:Devices>`;
    const [device] = parseDevicesXml(xml);
    expect(device?.name).toBe('A & B');
    expect(device?.dataItems.map((i) => [i.id, i.source])).toEqual([
      ['x', 'exec'],
      ['z', null],
      ['s', null],
      ['t', null],
    ]);
  });
});

describe('key resolution', () => {
  it('resolves by id, then name, then <Source>', () => {
    const items =
      parseDevicesXml(`<Devices><Device name="D"><DataItems>
      <DataItem id="a" name="b" type="T1" category="EVENT"/>
      <DataItem id="b" name="c" type="T2" category="EVENT"><Source>a</Source></DataItem>
      <DataItem id="d" name="e" type="T3" category="EVENT"><Source>c</Source></DataItem>
    </DataItems></Device></Devices>`)[0]?.dataItems ?? [];
    const resolve = createKeyResolver(items);
    expect(['a', 'b', 'c', 'e', 'missing'].map((k) => resolve(k)?.type)).toEqual([
      'T1',
      'T2',
      'T2',
      'T3',
      undefined,
    ]);
  });

  it("resolves the Hurco's Program_Status and the Okuma's pexecution to EXECUTION items", () => {
    expect(resolverForDevice(nist, 'Hurco04')('Program_Status')).toMatchObject({
      type: 'EXECUTION',
      componentType: 'Path',
      deviceName: 'Hurco04',
    });
    expect(resolverForDevice(cppagent, 'OKUMA')('pexecution')).toMatchObject({
      type: 'EXECUTION',
      category: 'EVENT',
    });
    expect(resolverForDevice(nist, 'mtc_adapter008')('Part_Count')?.type).toBe('PART_COUNT');
  });

  it('resolves every key of the Hurco log, and every Okuma key the description has', () => {
    const hurco = resolverForDevice(nist, 'Hurco04');
    expect([...keysOf('nist_2-1-2017-Hurco04-Clean.shdr.txt')].filter((k) => !hurco(k))).toEqual([]);
    const okuma = resolverForDevice(cppagent, 'OKUMA');
    // The real adapter sends one key its description lacks: it stays unmapped.
    expect([...keysOf('cppagent_demo_okuma.shdr.txt')].filter((k) => !okuma(k))).toEqual([
      'ApplicationInstallDate',
    ]);
  });

  it('keeps devices apart and resolves Device:key', () => {
    const hurco1 = resolverForDevice(nist, 'Hurco01')('Program_Status');
    expect(hurco1?.deviceName).toBe('Hurco01');
    expect(resolverForDevice(nist, 'Hurco01')('Hurco06:Program_Status')?.deviceName).toBe('Hurco06');
    expect(resolverForDevice(nist, 'NoSuchDevice')('Program_Status')).toBeUndefined();
  });

  it('tells the SHDR parser which keys are conditions, messages and samples', () => {
    const kinds = keyKindsFrom(resolverForDevice(cppagent, 'OKUMA'));
    expect(
      typeof kinds === 'function' && ['system', 'pexecution', 'S1speed', 'nope'].map((k) => kinds(k)),
    ).toEqual(['condition', 'event', 'sample', undefined]);
    const base = nist[0]?.dataItems[0];
    if (!base) throw new Error('no item');
    expect(keyKindOf({ ...base, category: 'EVENT', type: 'MESSAGE' })).toBe('message');
    expect(keyKindOf({ ...base, category: 'SAMPLE', representation: 'TIME_SERIES' })).toBe('time_series');
    expect(keyKindOf({ ...base, category: 'EVENT', representation: 'DATA_SET' })).toBe('data_set');
  });

  it('never throws on truncated or garbled descriptions', () => {
    const source = mtconnectFile('cppagent_demo_Devices.xml');
    fc.assert(
      fc.property(fc.nat(source.length), fc.string({ maxLength: 40 }), (cut, junk) => {
        const devices = parseDevicesXml(source.slice(0, cut) + junk + source.slice(cut, cut + 500));
        expect(Array.isArray(devices)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe('demo plant description', () => {
  it('resolves every demo key of every machine by name, with its meaning', () => {
    const devices = parseDevicesXml(demoDevicesXml(['Mill 1', 'Lathe 2']));
    expect(devices.map((d) => d.name)).toEqual(['Mill 1', 'Lathe 2']);
    for (const device of devices) {
      const resolve = resolverForDevice(devices, device.name);
      const types = Object.fromEntries(Object.keys(DEMO_KEYS).map((k) => [k, resolve(k)?.type]));
      expect(types).toEqual({
        avail: 'AVAILABILITY',
        execution: 'EXECUTION',
        mode: 'CONTROLLER_MODE',
        program: 'PROGRAM',
        part_count: 'PART_COUNT',
        Sspeed: 'ROTARY_VELOCITY',
        path_feedrate: 'PATH_FEEDRATE',
        system: 'SYSTEM',
      });
      expect(resolve('system')?.category).toBe('CONDITION');
      expect(resolve('execution')?.deviceName).toBe(device.name);
    }
  });
});

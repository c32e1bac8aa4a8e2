// MTConnect device descriptions (Devices.xml, the agent's /probe answer; versions 1.x and 2.x) →
// data items, and the resolver that tells what an adapter key means. Only the few elements we need
// are read, with the small tag scanner of xml-scan.ts. Never throws; unknown or broken markup is skipped.
import type { DataItem, Device, KeyKind, KeyKinds } from '@takt/domain';
import type { XmlAttributes } from './xml-scan';
import { scanXml } from './xml-scan';

export type { DataItem, Device } from '@takt/domain';

interface OpenElement {
  name: string;
  attributes: XmlAttributes;
  /** set on Device/Agent elements */
  device?: Device;
  /** set on a DataItem element while it is open, to catch its <Source> */
  dataItem?: DataItem;
}

export function parseDevicesXml(xml: string): Device[] {
  const devices: Device[] = [];
  const stack: OpenElement[] = [];
  let sourceText: string | null = null;
  scanXml(xml, {
    open(name, attributes, selfClosing) {
      const element: OpenElement = { name, attributes };
      onOpen(element, stack, devices);
      if (!selfClosing) stack.push(element);
      if (name === 'Source' && !selfClosing) sourceText = '';
    },
    close(name) {
      if (name === 'Source' && sourceText !== null) {
        setSource(stack, sourceText.trim());
        sourceText = null;
      }
      popTo(stack, name);
    },
    text(text) {
      if (sourceText !== null) sourceText += text;
    },
  });
  return devices;
}

function onOpen(element: OpenElement, stack: OpenElement[], devices: Device[]): void {
  const a = element.attributes;
  if (element.name === 'Device' || element.name === 'Agent') {
    element.device = {
      id: a.id ?? null,
      name: a.name ?? a.uuid ?? a.id ?? '',
      uuid: a.uuid ?? null,
      dataItems: [],
    };
    devices.push(element.device);
    return;
  }
  if (element.name !== 'DataItem' || stack.at(-1)?.name !== 'DataItems') return;
  const device = [...stack].reverse().find((e) => e.device)?.device;
  // The owner of the <DataItems> list is the component: Device, Controller, Path, Rotary…
  const owner = stack.at(-2);
  if (!device || !owner || !a.id || !a.type) return;
  element.dataItem = {
    id: a.id,
    name: a.name ?? null,
    type: a.type,
    subType: a.subType ?? null,
    category: (a.category ?? '').toUpperCase(),
    representation: a.representation ? a.representation.toUpperCase() : null,
    units: a.units ?? null,
    componentType: owner.name,
    componentName: owner.attributes.name ?? null,
    componentId: owner.attributes.id ?? null,
    deviceName: device.name,
    deviceUuid: device.uuid,
    source: null,
  };
  device.dataItems.push(element.dataItem);
}

function setSource(stack: OpenElement[], text: string): void {
  // <Source> sits directly inside its DataItem (the Source element itself is on the stack top).
  const item = stack.at(-1)?.name === 'Source' ? stack.at(-2)?.dataItem : stack.at(-1)?.dataItem;
  if (item && text !== '') item.source = text;
}

/** Pops up to and including the nearest open element of that name; a stray end tag changes nothing. */
function popTo(stack: OpenElement[], name: string): void {
  for (let i = stack.length - 1; i >= 0; i--) {
    if (stack[i]?.name === name) {
      stack.length = i;
      return;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Key resolution

export type KeyResolver = (key: string) => DataItem | undefined;

/**
 * Resolves an adapter key the way the agent does: DataItem id first, then name, then `<Source>`
 * text. Pass one device's items: names repeat between devices (every Hurco has a
 * `Program_Status`). The first item wins a tie inside one list.
 */
export function createKeyResolver(dataItems: readonly DataItem[]): KeyResolver {
  const byId = new Map<string, DataItem>();
  const byName = new Map<string, DataItem>();
  const bySource = new Map<string, DataItem>();
  for (const item of dataItems) {
    if (!byId.has(item.id)) byId.set(item.id, item);
    if (item.name !== null && !byName.has(item.name)) byName.set(item.name, item);
    if (item.source !== null && !bySource.has(item.source)) bySource.set(item.source, item);
  }
  return (key) => byId.get(key) ?? byName.get(key) ?? bySource.get(key);
}

/**
 * A resolver for one device by name, uuid or id (or every device when none is named). Keys of the
 * `Device:key` form, which multi-device adapters send, resolve inside the named device.
 */
export function resolverForDevice(devices: readonly Device[], device?: string): KeyResolver {
  const pick = (ref: string) => devices.find((d) => d.name === ref || d.uuid === ref || d.id === ref);
  const chosen = device === undefined ? undefined : pick(device);
  const items = device === undefined ? devices.flatMap((d) => d.dataItems) : (chosen?.dataItems ?? []);
  const resolve = createKeyResolver(items);
  const scopedResolvers = new Map<Device, KeyResolver>();
  return (key) => {
    const direct = resolve(key);
    if (direct) return direct;
    const colon = key.indexOf(':');
    const scoped = colon > 0 ? pick(key.slice(0, colon)) : undefined;
    if (!scoped) return undefined;
    let scopedResolve = scopedResolvers.get(scoped);
    if (!scopedResolve) scopedResolvers.set(scoped, (scopedResolve = createKeyResolver(scoped.dataItems)));
    return scopedResolve(key.slice(colon + 1));
  };
}

/** What the SHDR parser needs to know about an item to read its tokens. */
export function keyKindOf(item: DataItem): KeyKind {
  if (item.category === 'CONDITION') return 'condition';
  if (item.type === 'MESSAGE') return 'message';
  if (item.representation === 'TIME_SERIES') return 'time_series';
  if (item.representation === 'DATA_SET') return 'data_set';
  if (item.representation === 'TABLE') return 'table';
  return item.category === 'SAMPLE' ? 'sample' : 'event';
}

/** KeyKinds for parseShdrLine, backed by a resolver. */
export function keyKindsFrom(resolve: KeyResolver): KeyKinds {
  return (key) => {
    const item = resolve(key);
    return item ? keyKindOf(item) : undefined;
  };
}

/**
 * MTConnect types that only exist as CONDITION items (Part 2, Condition types); every SAMPLE type can be a
 * condition as well, so those are left to the shape test.
 */
const CONDITION_ONLY_TYPES: ReadonlySet<string> = new Set([
  'ACTUATOR',
  'COMMUNICATIONS',
  'DATA_RANGE',
  'HARDWARE',
  'LOGIC_PROGRAM',
  'MOTION_PROGRAM',
  'SYSTEM',
]);

/** EVENT types the derivation reads: never conditions, so `execution|FAULT|…` is never misread as one. */
const EVENT_TYPES: ReadonlySet<string> = new Set([
  'AVAILABILITY',
  'BLOCK',
  'CONTROLLER_MODE',
  'EMERGENCY_STOP',
  'EXECUTION',
  'FUNCTIONAL_MODE',
  'LINE',
  'PART_COUNT',
  'PROGRAM',
  'SUB_PROGRAM',
  'TOOL_NUMBER',
]);

/**
 * What the SHDR parser needs to know of a key from an adapter field (type and subtype only: the field has
 * no category or representation, so TIME_SERIES, DATA_SET and TABLE cannot be told; decision 0203).
 * Undefined leaves the key to the parser's shape test.
 */
export function keyKindOfType(dataItemType: string): KeyKind | undefined {
  const type = dataItemType.trim().toUpperCase();
  if (type === 'MESSAGE') return 'message';
  if (CONDITION_ONLY_TYPES.has(type)) return 'condition';
  if (EVENT_TYPES.has(type)) return 'event';
  return undefined;
}

/**
 * KeyKinds from an adapter's field mapping (key → data item type), for the live paths: "without a
 * description, the adapter's field mapping decides". Keys whose kind the type does not tell are left out.
 */
export function keyKindsFromFields(
  fields: ReadonlyMap<string, { type: string }>,
): ReadonlyMap<string, KeyKind> {
  const kinds = new Map<string, KeyKind>();
  for (const [key, field] of fields) {
    const kind = keyKindOfType(field.type);
    if (kind) kinds.set(key, kind);
  }
  return kinds;
}

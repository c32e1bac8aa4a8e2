// The adapter import of reports-admin §2 ("paste an XML device description and a line-based text stream to
// map data items to adapter fields"): which fields does the sample use, and which existing adapter fits?
//   exact   → every field of the sample and of one adapter agree: Select it;
//   partial → the adapter sharing most fields, with what is missing and extra: Select or Clone & Modify;
//   none    → no adapter shares a field: Create one with the proposed fields.
// reports-admin §7 "adapter search by shdr" answers with the adapter, unmatchedItems and extraneousItems.
// Pure functions: no IO.
import type {
  AdapterField,
  AdapterImport,
  DataItem,
  Device,
  ExistingAdapter,
  SampleFields,
} from '@takt/domain';
import { createKeyResolver, keyKindsFrom } from './devices';
import { parseShdrLine, splitShdrStream } from '../shdr/shdr';

export type { AdapterField, AdapterImport, AdapterMatch, ExistingAdapter, SampleFields } from '@takt/domain';

const OWN_ITEMS: ReadonlySet<string> = new Set(['Device', 'Agent']);

/** The field a data item gives for the key that reached it. */
export function fieldFromDataItem(key: string, item: DataItem): AdapterField {
  return {
    name: key,
    dataItemType: item.type,
    dataItemSubtype: item.subType,
    // An adapter describes a kind of machine (the six NIST Hurcos share one), so items of the Device
    // itself are filed under "Device", not under one machine's name. Other components keep their name
    // (controller, path, C…); unnamed ones are known by id, then by kind.
    componentName: OWN_ITEMS.has(item.componentType)
      ? item.componentType
      : (item.componentName ?? item.componentId ?? item.componentType),
    componentType: item.componentType,
  };
}

/**
 * The fields a line-based SHDR sample uses, resolved through one device's data items (DataItem id, then
 * name, then `<Source>`). Asset commands and adapter commands are no fields.
 */
export function sampleFields(dataItems: readonly DataItem[], sample: string): SampleFields {
  const resolve = createKeyResolver(dataItems);
  const kinds = keyKindsFrom(resolve);
  const splitter = splitShdrStream();
  const fields = new Map<string, AdapterField>();
  const unresolved = new Set<string>();
  let lines = 0;
  let rejected = 0;
  for (const raw of [...splitter.push(sample), ...splitter.end()]) {
    lines++;
    // The timestamp does not matter here: any receive time will do.
    const line = parseShdrLine(raw, 0, kinds);
    if (line.type !== 'data') continue;
    rejected += line.rejected;
    for (const o of line.observations) {
      if (o.kind === 'asset' || fields.has(o.key) || unresolved.has(o.key)) continue;
      const item = resolve(o.key);
      if (item) fields.set(o.key, fieldFromDataItem(o.key, item));
      else unresolved.add(o.key);
    }
  }
  return {
    fields: [...fields.values()],
    unresolvedKeys: [...unresolved],
    lines,
    rejected: rejected + splitter.dropped,
  };
}

/** Two fields mean the same when every attribute agrees (types and subtypes in any letter case). */
export function sameField(a: AdapterField, b: AdapterField): boolean {
  const norm = (s: string | null) => (s ?? '').trim().toUpperCase();
  return (
    a.name === b.name &&
    norm(a.dataItemType) === norm(b.dataItemType) &&
    norm(a.dataItemSubtype) === norm(b.dataItemSubtype) &&
    a.componentName.trim() === b.componentName.trim() &&
    a.componentType.trim() === b.componentType.trim()
  );
}

interface Comparison {
  adapter: ExistingAdapter;
  matched: number;
  missing: AdapterField[];
  extra: AdapterField[];
  unmatchedKeys: string[];
}

function compare(sample: SampleFields, adapter: ExistingAdapter): Comparison {
  const missing = sample.fields.filter((f) => !adapter.fields.some((a) => sameField(a, f)));
  const extra = adapter.fields.filter((a) => !sample.fields.some((f) => sameField(a, f)));
  // A key the description does not know still matches an adapter field of that name: the adapter says
  // what it means.
  const known = new Set(adapter.fields.map((a) => a.name));
  const unmatchedKeys = sample.unresolvedKeys.filter((k) => !known.has(k));
  const extraWithoutUnresolved = extra.filter((a) => !sample.unresolvedKeys.includes(a.name));
  return {
    adapter,
    matched: sample.fields.length - missing.length + (sample.unresolvedKeys.length - unmatchedKeys.length),
    missing,
    extra: extraWithoutUnresolved,
    unmatchedKeys,
  };
}

/**
 * Compares the sample's fields against the existing adapters. The best partial match shares the most
 * fields; ties go to the one with fewer differences, then to the name, so the answer is deterministic.
 */
export function matchAdapter(sample: SampleFields, adapters: readonly ExistingAdapter[]): AdapterImport {
  const ranked = adapters
    .map((a) => compare(sample, a))
    .sort(
      (x, y) =>
        y.matched - x.matched ||
        x.missing.length +
          x.extra.length +
          x.unmatchedKeys.length -
          (y.missing.length + y.extra.length + y.unmatchedKeys.length) ||
        x.adapter.name.localeCompare(y.adapter.name) ||
        x.adapter.id.localeCompare(y.adapter.id),
    );
  const best = ranked[0];
  if (!best || best.matched === 0) {
    return {
      outcome: 'none',
      proposed: sample.fields,
      actions: ['create'],
      ...sample,
      unmatchedItems: [...sample.fields.map((f) => f.name), ...sample.unresolvedKeys],
      extraneousItems: [],
    };
  }
  const unmatchedItems = [...best.missing.map((f) => f.name), ...best.unmatchedKeys];
  const extraneousItems = best.extra.map((f) => f.name);
  if (unmatchedItems.length === 0 && extraneousItems.length === 0) {
    return {
      outcome: 'exact',
      adapter: best.adapter,
      actions: ['select'],
      ...sample,
      unmatchedItems,
      extraneousItems,
    };
  }
  return {
    outcome: 'partial',
    adapter: best.adapter,
    missing: best.missing,
    extra: best.extra,
    matched: best.matched,
    actions: ['select', 'clone'],
    ...sample,
    unmatchedItems,
    extraneousItems,
  };
}

/**
 * The device of a description that the sample talks about: the one resolving the most of its keys
 * (a pasted Devices.xml often describes several machines). Null when none resolves any.
 */
export function pickDevice(devices: readonly Device[], sample: string): Device | null {
  let best: { device: Device; resolved: number } | null = null;
  for (const device of devices) {
    const resolved = sampleFields(device.dataItems, sample).fields.length;
    if (resolved > 0 && (!best || resolved > best.resolved)) best = { device, resolved };
  }
  return best?.device ?? null;
}

/** The whole import: sample fields through the description, then the match against existing adapters. */
export function importAdapter(
  dataItems: readonly DataItem[],
  sample: string,
  adapters: readonly ExistingAdapter[],
): AdapterImport {
  return matchAdapter(sampleFields(dataItems, sample), adapters);
}

// MTConnect agent documents → observations: MTConnectStreams (/current, /sample), MTConnectError and
// MTConnectDevices (/probe). Pure and forgiving: a broken observation element is counted in `rejected`
// and skipped, the good ones in the same document are kept; a document that is no MTConnect document at
// all comes back as `invalid`. Nothing in here throws on input.
import { timeProblem } from '@takt/domain';
import type { Device } from '../devices/devices';
import { parseDevicesXml } from '../devices/devices';
import type { ConditionLevel, Observation } from '../shdr/shdr';
import { conditionReading, parseTimestamp } from '../shdr/shdr';
import type { XmlAttributes } from '../devices/xml-scan';
import { scanXml } from '../devices/xml-scan';

export interface StreamsHeader {
  instanceId: string;
  firstSequence: number;
  nextSequence: number;
  lastSequence: number;
  bufferSize: number | null;
  /** epoch ms, null when missing or unreadable */
  creationTime: number | null;
}

/** An observation as an agent reports it: the shdr.ts Observation plus where it sits in the agent. */
export interface AgentObservation extends Observation {
  dataItemId: string;
  /** the DataItem name, when the agent reports one */
  name: string | null;
  sequence: number;
  category: 'SAMPLE' | 'EVENT' | 'CONDITION';
  /** the element name: Execution, PartCount, Fault… */
  element: string;
  deviceName: string;
  deviceUuid: string | null;
  componentType: string | null;
  componentName: string | null;
  componentId: string | null;
}

export interface AgentError {
  code: string;
  message: string;
}

export type AgentDocument =
  | { kind: 'streams'; header: StreamsHeader; observations: AgentObservation[]; rejected: number }
  | { kind: 'devices'; instanceId: string | null; devices: Device[] }
  | { kind: 'error'; instanceId: string | null; errors: AgentError[] }
  | { kind: 'invalid'; reason: string };

/**
 * Which text becomes Observation.key. `name` (the default) gives the adapter's key for items that have a
 * name, which is what adapter fields and `createKeyResolver` match (id first, then name); `id` always uses
 * the dataItemId.
 */
export type AgentKeyBy = 'name' | 'id';

const CONTAINERS: Readonly<Record<string, AgentObservation['category']>> = {
  Samples: 'SAMPLE',
  Events: 'EVENT',
  Condition: 'CONDITION',
};
const CONDITION_ELEMENTS: Readonly<Record<string, ConditionLevel>> = {
  Normal: 'NORMAL',
  Warning: 'WARNING',
  Fault: 'FAULT',
  Unavailable: 'UNAVAILABLE',
};

interface Entry {
  key: string;
  removed: boolean;
  text: string;
  cells: Array<{ key: string; text: string }>;
}

interface OpenObservation {
  element: string;
  attributes: XmlAttributes;
  category: AgentObservation['category'];
  text: string;
  entries: Entry[];
  /** depth of nested elements inside the observation element (Entry, Cell) */
  depth: number;
}

/** Reads any agent answer. `receivedAt` stands in for a missing or unreadable timestamp. */
export function parseAgentDocument(
  xml: string,
  receivedAt: number,
  keyBy: AgentKeyBy = 'name',
): AgentDocument {
  const root = rootElement(xml);
  if (root === 'MTConnectDevices') {
    return {
      kind: 'devices',
      instanceId: headerAttributes(xml)?.instanceId ?? null,
      devices: parseDevicesXml(xml),
    };
  }
  if (root === 'MTConnectError') return parseError(xml);
  if (root === 'MTConnectStreams') return parseStreams(xml, receivedAt, keyBy);
  return {
    kind: 'invalid',
    reason: root === null ? 'not an XML document' : `unexpected root element <${root}>`,
  };
}

function rootElement(xml: string): string | null {
  let root: string | null = null;
  const found = {};
  try {
    scanXml(xml.slice(0, 4096), {
      open(name) {
        root = name;
        throw found; // the first start tag is all we want: stop scanning
      },
      close() {},
      text() {},
    });
  } catch (stop) {
    if (stop !== found) throw stop;
  }
  return root;
}

function headerAttributes(xml: string): XmlAttributes | null {
  let header: XmlAttributes | null = null;
  const found = {};
  try {
    scanXml(xml, {
      open(name, attributes) {
        if (name !== 'Header') return;
        header = attributes;
        throw found;
      },
      close() {},
      text() {},
    });
  } catch (stop) {
    if (stop !== found) throw stop;
  }
  return header;
}

function parseError(xml: string): AgentDocument {
  const errors: AgentError[] = [];
  let instanceId: string | null = null;
  let open: AgentError | null = null;
  scanXml(xml, {
    open(name, a, selfClosing) {
      if (name === 'Header') instanceId = a.instanceId ?? null;
      if (name !== 'Error') return;
      const error = { code: a.errorCode ?? '', message: '' };
      errors.push(error);
      if (!selfClosing) open = error;
    },
    close(name) {
      if (name === 'Error') open = null;
    },
    text(text) {
      if (open) open.message += text;
    },
  });
  for (const e of errors) e.message = e.message.trim();
  return { kind: 'error', instanceId, errors };
}

function sequenceOf(text: string | undefined): number | null {
  if (text === undefined || !/^\d+$/.test(text.trim())) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : null;
}

function parseStreams(xml: string, receivedAt: number, keyBy: AgentKeyBy): AgentDocument {
  let header: StreamsHeader | null = null;
  let headerProblem: string | null = null;
  const observations: AgentObservation[] = [];
  let rejected = 0;
  let device: { name: string; uuid: string | null } | null = null;
  let component: { type: string | null; name: string | null; id: string | null } | null = null;
  let category: AgentObservation['category'] | null = null;
  let open: OpenObservation | null = null;

  scanXml(xml, {
    open(name, a, selfClosing) {
      if (open) {
        if (name === 'Entry' && open.depth === 0)
          open.entries.push({ key: a.key ?? '', removed: a.removed === 'true', text: '', cells: [] });
        else if (name === 'Cell' && open.depth === 1)
          open.entries.at(-1)?.cells.push({ key: a.key ?? '', text: '' });
        if (!selfClosing) open.depth++;
        return;
      }
      if (name === 'Header') {
        const instanceId = a.instanceId;
        const first = sequenceOf(a.firstSequence);
        const next = sequenceOf(a.nextSequence);
        const last = sequenceOf(a.lastSequence);
        if (!instanceId || first === null || next === null || last === null) {
          headerProblem = 'Header without instanceId, firstSequence, nextSequence and lastSequence';
          return;
        }
        header = {
          instanceId,
          firstSequence: first,
          nextSequence: next,
          lastSequence: last,
          bufferSize: sequenceOf(a.bufferSize),
          creationTime: a.creationTime ? parseTimestamp(a.creationTime) : null,
        };
      } else if (name === 'DeviceStream') {
        device = { name: a.name ?? a.uuid ?? '', uuid: a.uuid ?? null };
      } else if (name === 'ComponentStream') {
        component = { type: a.component ?? null, name: a.name ?? null, id: a.componentId ?? null };
      } else if (CONTAINERS[name] && component) {
        category = CONTAINERS[name] ?? null;
      } else if (category && device) {
        const observation: OpenObservation = {
          element: name,
          attributes: a,
          category,
          text: '',
          entries: [],
          depth: 0,
        };
        if (selfClosing) finish(observation);
        else open = observation;
      }
    },
    close(name) {
      if (open) {
        if (open.depth > 0) {
          open.depth--;
          return;
        }
        if (name === open.element) {
          finish(open);
          open = null;
        }
        return;
      }
      if (CONTAINERS[name]) category = null;
      else if (name === 'ComponentStream') component = null;
      else if (name === 'DeviceStream') device = null;
    },
    text(text) {
      if (!open) return;
      if (open.depth === 0) open.text += text;
      else {
        const entry = open.entries.at(-1);
        if (!entry) return;
        const cell = open.depth === 2 ? entry.cells.at(-1) : undefined;
        if (cell) cell.text += text;
        else if (open.depth === 1) entry.text += text;
      }
    },
  });

  function finish(o: OpenObservation): void {
    const built = device && buildObservation(o, device, component, receivedAt, keyBy);
    if (built) observations.push(built);
    else rejected++;
  }

  if (!header) return { kind: 'invalid', reason: headerProblem ?? 'MTConnectStreams without a Header' };
  // Elements come grouped by component; consumers want them in the order the agent saw them.
  observations.sort((x, y) => x.sequence - y.sequence);
  return { kind: 'streams', header, observations, rejected };
}

function buildObservation(
  o: OpenObservation,
  device: { name: string; uuid: string | null },
  component: { type: string | null; name: string | null; id: string | null } | null,
  receivedAt: number,
  keyBy: AgentKeyBy,
): AgentObservation | null {
  const a = o.attributes;
  const dataItemId = a.dataItemId?.trim();
  const sequence = sequenceOf(a.sequence);
  if (!dataItemId || sequence === null) return null;
  const ts = (a.timestamp ? parseTimestamp(a.timestamp) : null) ?? receivedAt;
  // Decision 0980: an observation dated before 2014-04-01 or in the future is unreadable (counted, not kept).
  if (timeProblem('timestamp', ts, receivedAt) !== null) return null;
  const name = a.name?.trim() || null;
  const base = {
    ts,
    key: keyBy === 'name' && name ? name : dataItemId,
    dataItemId,
    name,
    sequence,
    category: o.category,
    element: o.element,
    deviceName: device.name,
    deviceUuid: device.uuid,
    componentType: component?.type ?? null,
    componentName: component?.name ?? null,
    componentId: component?.id ?? null,
  };
  const text = o.text.trim();

  if (o.category === 'CONDITION') {
    const level = CONDITION_ELEMENTS[o.element];
    if (!level) return null;
    return {
      ...base,
      ...conditionReading(level, {
        nativeCode: a.nativeCode,
        nativeSeverity: a.nativeSeverity,
        qualifier: a.qualifier,
        message: text,
      }),
    };
  }
  const unavailable = text.toUpperCase() === 'UNAVAILABLE';
  if (o.element === 'Message' || o.element === 'Alarm') {
    return { ...base, value: unavailable ? null : text, kind: 'message', nativeCode: a.nativeCode ?? '' };
  }
  if (o.element.endsWith('TimeSeries')) {
    if (unavailable) return { ...base, value: null, kind: 'value' };
    const count = Number(a.sampleCount);
    const rate = a.sampleRate === undefined || a.sampleRate === '' ? null : Number(a.sampleRate);
    if (!Number.isInteger(count) || count < 0 || (rate !== null && !Number.isFinite(rate))) return null;
    return {
      ...base,
      value: text.split(/\s+/).filter(Boolean).join(' '),
      kind: 'value',
      timeSeries: { count, rate },
    };
  }
  if (o.entries.length > 0 || o.element.endsWith('DataSet') || o.element.endsWith('Table')) {
    // In the SHDR form (`k=v k2={c=1}`), so parseDataSet reads agent and adapter values alike.
    if (unavailable && o.entries.length === 0) return { ...base, value: null, kind: 'value' };
    return { ...base, value: o.entries.map(entryText).join(' '), kind: 'value' };
  }
  return { ...base, value: unavailable ? null : text, kind: 'value' };
}

function entryText(entry: Entry): string {
  if (entry.removed) return entry.key;
  if (entry.cells.length > 0) {
    return `${entry.key}={${entry.cells.map((c) => `${c.key}=${quoteIfNeeded(c.text.trim())}`).join(' ')}}`;
  }
  return `${entry.key}=${quoteIfNeeded(entry.text.trim())}`;
}

function quoteIfNeeded(value: string): string {
  return /[\s'"{}=]/.test(value) || value === '' ? `'${value.replace(/['\\]/g, '\\$&')}'` : value;
}

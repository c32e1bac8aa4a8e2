// A stand-in MTConnect agent for the agent client tests: a real HTTP server on 127.0.0.1 serving /probe
// (a real Devices.xml), /current and /sample from a sequence buffer the test controls, with the buffer
// overrun and instance restart behaviour of cppagent. Not used at runtime.
import http from 'node:http';
import type { DataItem } from '../sources/devices/devices';
import { createKeyResolver, parseDevicesXml } from '../sources/devices/devices';
import type { ConditionValue } from '../sources/shdr/shdr';
import { xmlEscape } from './xml';

interface Stored {
  sequence: number;
  item: DataItem;
  ts: number;
  value: string | null;
  condition?: ConditionValue;
}

export interface FakeAgentOptions {
  devicesXml: string;
  bufferSize: number;
  /**
   * How to answer a `from` older than the buffer: `error` (cppagent: 400 with an MTConnectError
   * OUT_OF_RANGE) or `serve` (answer with what the buffer holds, firstSequence > from).
   */
  overrun?: 'error' | 'serve';
}

export class FakeAgent {
  readonly requests: string[] = [];
  instanceId = 1_700_000_000;
  private readonly devicesXml: string;
  private readonly bufferSize: number;
  private readonly overrun: 'error' | 'serve';
  private readonly resolvers: Map<string, (key: string) => DataItem | undefined>;
  private readonly items: DataItem[];
  private buffer: Stored[] = [];
  private latest = new Map<string, Stored>();
  private nextSequence = 1;
  private scripted: Array<{ status: number; body: string }> = [];
  private server: http.Server | null = null;
  port = 0;

  constructor(options: FakeAgentOptions) {
    this.devicesXml = options.devicesXml;
    this.bufferSize = options.bufferSize;
    this.overrun = options.overrun ?? 'error';
    const devices = parseDevicesXml(options.devicesXml);
    this.items = devices.flatMap((d) => d.dataItems);
    this.resolvers = new Map(devices.map((d) => [d.name, createKeyResolver(d.dataItems)]));
    this.initialize();
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get firstSequence(): number {
    return this.buffer[0]?.sequence ?? this.nextSequence;
  }

  get lastSequence(): number {
    return this.nextSequence - 1;
  }

  async listen(): Promise<this> {
    const server = http.createServer((req, res) => this.answer(req, res));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    this.port = address.port;
    return this;
  }

  close(): Promise<void> {
    const server = this.server;
    if (!server) return Promise.resolve();
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  }

  /** Records one observation of a device's item (resolved by id, name or Source); returns its sequence. */
  add(device: string, key: string, value: string | null, ts: number, condition?: ConditionValue): number {
    const item = this.resolvers.get(device)?.(key);
    if (!item) throw new Error(`no data item ${key} in ${device}`);
    const stored: Stored = {
      sequence: this.nextSequence++,
      item,
      ts,
      value,
      ...(condition ? { condition } : {}),
    };
    this.buffer.push(stored);
    if (this.buffer.length > this.bufferSize) this.buffer.splice(0, this.buffer.length - this.bufferSize);
    this.latest.set(item.id, stored);
    return stored.sequence;
  }

  /** The agent process restarts: new instanceId, sequences from 1, every item UNAVAILABLE. */
  restart(): void {
    this.instanceId++;
    this.buffer = [];
    this.latest = new Map();
    this.nextSequence = 1;
    this.initialize();
  }

  /** The next answers are these, whatever is asked (HTTP errors, broken documents). */
  script(...answers: Array<{ status: number; body: string }>): void {
    this.scripted.push(...answers);
  }

  private initialize(): void {
    // Like cppagent: at start every data item gets an UNAVAILABLE observation with its own sequence.
    for (const item of this.items) {
      const stored: Stored = { sequence: this.nextSequence++, item, ts: 1_659_966_000_000, value: null };
      this.buffer.push(stored);
      this.latest.set(item.id, stored);
    }
    if (this.buffer.length > this.bufferSize) this.buffer.splice(0, this.buffer.length - this.bufferSize);
  }

  private answer(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://agent');
    this.requests.push(`${url.pathname.slice(1)}${url.search}`);
    const scripted = this.scripted.shift();
    if (scripted) return send(res, scripted.status, scripted.body);
    if (url.pathname === '/probe') return send(res, 200, this.devicesXml);
    if (url.pathname === '/current') return send(res, 200, this.streams([...this.latest.values()]));
    if (url.pathname !== '/sample') return send(res, 404, this.error('UNSUPPORTED', `No ${url.pathname}`));
    const count = Number(url.searchParams.get('count') ?? '100');
    let from = Number(url.searchParams.get('from') ?? String(this.firstSequence));
    if (from < this.firstSequence || from > this.nextSequence) {
      if (this.overrun === 'error' || from > this.nextSequence) {
        return send(
          res,
          400,
          this.error('OUT_OF_RANGE', `'from' must be greater than or equal to ${this.firstSequence}.`),
        );
      }
      from = this.firstSequence;
    }
    const page = this.buffer.filter((s) => s.sequence >= from).slice(0, count);
    const next = page.length === 0 ? from : (page.at(-1)?.sequence ?? from) + 1;
    send(res, 200, this.streams(page, next));
  }

  private header(next = this.nextSequence): string {
    return `<Header creationTime="2022-08-08T13:51:34Z" sender="fake" instanceId="${this.instanceId}" version="2.0.0.0" bufferSize="${this.bufferSize}" firstSequence="${this.firstSequence}" nextSequence="${next}" lastSequence="${this.lastSequence}"/>`;
  }

  private error(code: string, message: string): string {
    return `<?xml version="1.0" encoding="UTF-8"?>
<MTConnectError xmlns="urn:mtconnect.org:MTConnectError:2.0">${this.header()}<Errors><Error errorCode="${code}">${xmlEscape(message)}</Error></Errors></MTConnectError>`;
  }

  private streams(observations: Stored[], next?: number): string {
    // Grouped device → component → category, like an agent; sequences interleave across groups.
    const devices = new Map<string, Map<string, Stored[]>>();
    for (const o of observations) {
      const byComponent = devices.get(o.item.deviceName) ?? new Map<string, Stored[]>();
      devices.set(o.item.deviceName, byComponent);
      const key = o.item.componentId ?? o.item.componentType;
      byComponent.set(key, [...(byComponent.get(key) ?? []), o]);
    }
    const deviceXml = [...devices].map(([name, byComponent]) => {
      const components = [...byComponent.values()].map((list) => {
        const first = list[0]?.item;
        const categories = (['SAMPLE', 'EVENT', 'CONDITION'] as const)
          .map((category) => {
            const inCategory = list.filter((o) => o.item.category === category);
            if (inCategory.length === 0) return '';
            const tag = { SAMPLE: 'Samples', EVENT: 'Events', CONDITION: 'Condition' }[category];
            return `<${tag}>${inCategory.map(observationXml).join('')}</${tag}>`;
          })
          .join('');
        return `<ComponentStream component="${first?.componentType}" name="${xmlEscape(first?.componentName ?? '')}" componentId="${first?.componentId ?? ''}">${categories}</ComponentStream>`;
      });
      return `<DeviceStream name="${xmlEscape(name)}" uuid="${xmlEscape(name)}">${components.join('')}</DeviceStream>`;
    });
    return `<?xml version="1.0" encoding="UTF-8"?>
<MTConnectStreams xmlns:m="urn:mtconnect.org:MTConnectStreams:2.0" xmlns="urn:mtconnect.org:MTConnectStreams:2.0">
${this.header(next)}
<Streams>${deviceXml.join('')}</Streams></MTConnectStreams>`;
  }
}

function send(res: http.ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/xml' });
  res.end(body);
}

/** EXECUTION → Execution, PART_COUNT → PartCount: the element name an agent uses for a type. */
export function elementName(type: string): string {
  return type
    .toLowerCase()
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}

function observationXml(o: Stored): string {
  const item = o.item;
  const attrs = [
    `dataItemId="${xmlEscape(item.id)}"`,
    `timestamp="${new Date(o.ts).toISOString()}"`,
    `sequence="${o.sequence}"`,
    ...(item.name ? [`name="${xmlEscape(item.name)}"`] : []),
    ...(item.subType ? [`subType="${item.subType}"`] : []),
  ];
  if (item.category === 'CONDITION') {
    const c = o.condition;
    const level = c?.level ?? (o.value === null ? 'UNAVAILABLE' : 'NORMAL');
    const tag = elementName(level);
    attrs.push(`type="${item.type}"`);
    if (c?.nativeCode) attrs.push(`nativeCode="${xmlEscape(c.nativeCode)}"`);
    if (c?.nativeSeverity) attrs.push(`nativeSeverity="${xmlEscape(c.nativeSeverity)}"`);
    if (c?.qualifier) attrs.push(`qualifier="${xmlEscape(c.qualifier)}"`);
    return c?.message
      ? `<${tag} ${attrs.join(' ')}>${xmlEscape(c.message)}</${tag}>`
      : `<${tag} ${attrs.join(' ')}/>`;
  }
  const tag = elementName(item.type);
  return `<${tag} ${attrs.join(' ')}>${xmlEscape(o.value ?? 'UNAVAILABLE')}</${tag}>`;
}

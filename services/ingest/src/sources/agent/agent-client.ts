// Client of an MTConnect agent, for shops that already run one: /probe to learn the
// devices and data items, /current for a full picture, then /sample?from=<next>&count=N following the
// agent's sequence numbers. The position (agent instance + next sequence) is saved only after the
// observations it covers were handed over and accepted, so a restart resumes without losing anything
// acknowledged (at-least-once; the consumer drops repeats by sequence if it must).
//
// Recovery, as the MTConnect standard describes it for clients:
//  - the agent's buffer moved past the wanted sequence (OUT_OF_RANGE error, or firstSequence > from):
//    the gap is reported, /current gives the present state, sampling continues after it;
//  - the agent restarted (instanceId changed): sequences restart too, so re-probe, /current, continue.
import type { Device } from '../devices/devices';
import type { AgentDocument, AgentKeyBy, AgentObservation, StreamsHeader } from './agent-streams';
import { parseAgentDocument } from './agent-streams';
import type { BackoffOptions } from '../shdr/shdr-client';
import { nextBackoffMs } from '../shdr/shdr-client';
import { callListener, reportTo } from '../listeners';
import type { AgentGet } from './guarded-get';
import { fetchGet } from './guarded-get';

export interface AgentPosition {
  instanceId: string;
  /** the first sequence not yet handed over */
  nextSequence: number;
}

export type AgentGapReason = 'overrun' | 'restart';

export interface AgentGap {
  reason: AgentGapReason;
  /** the sequence we asked for */
  wanted: number;
  /** overrun: the agent's firstSequence at the time (null when it answered OUT_OF_RANGE only) */
  firstSequence: number | null;
  previousInstanceId: string;
  instanceId: string | null;
  at: number;
}

export interface AgentBatch {
  source: 'current' | 'sample';
  header: StreamsHeader;
}

export type AgentStatus = 'CONNECTING' | 'CONNECTED' | 'DISCONNECTED';

export interface AgentCounters {
  requests: number;
  /** failed requests: network errors, timeouts, HTTP errors other than a readable OUT_OF_RANGE */
  httpErrors: number;
  documents: number;
  observations: number;
  /** observation elements that could not be read (the rest of their document is kept) */
  rejected: number;
  /** answers that were no usable MTConnect document */
  rejectedDocuments: number;
  gaps: number;
  lastResponseAt: number | null;
}

export interface AgentClientOptions {
  /** e.g. http://agent:5000, or http://agent:5000/OKUMA for one device */
  baseUrl: string;
  /** poll interval once caught up (default 1000 ms) */
  intervalMs?: number;
  /** observations per /sample request (default 1000) */
  count?: number;
  keyBy?: AgentKeyBy;
  /** the saved position, null when there is none (first start) */
  loadSequence: () => Promise<AgentPosition | null> | AgentPosition | null;
  /** called after each batch was accepted by onObservations */
  saveSequence: (position: AgentPosition) => Promise<void> | void;
  /** a batch in sequence order; a throw or rejection keeps the position, so the batch comes again */
  onObservations: (observations: AgentObservation[], batch: AgentBatch) => Promise<void> | void;
  onProbe?: (devices: Device[], instanceId: string | null) => void;
  onGap?: (gap: AgentGap) => void;
  onStatus?: (status: AgentStatus, at: number) => void;
  /** every answer of the agent, data or not: the link's heartbeat (an idle machine's samples are empty) */
  onResponse?: (at: number) => void;
  onError?: (error: Error) => void;
  /** wait after a failed request: starts at initialMs, doubles up to maxMs (default 500 ms → 30 s) */
  backoff?: BackoffOptions;
  requestTimeoutMs?: number;
  now?: () => number;
  /** How a document is fetched (default: fetch); the worker's agents go through the source policy (guarded-get.ts). */
  get?: AgentGet;
}

export type AgentStep =
  | { ok: true; action: 'probe' | 'current' | 'sample'; observations: number; more: boolean }
  | { ok: false; error: Error };

const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 500, maxMs: 30_000 };

class StepError extends Error {}

export class AgentClient {
  private readonly options: AgentClientOptions;
  private readonly now: () => number;
  private readonly backoff: BackoffOptions;
  private devicesSeen: Device[] | null = null;
  /** undefined until loaded; null means "start from /current" */
  private position: AgentPosition | null | undefined = undefined;
  private readonly stats: AgentCounters = {
    requests: 0,
    httpErrors: 0,
    documents: 0,
    observations: 0,
    rejected: 0,
    rejectedDocuments: 0,
    gaps: 0,
    lastResponseAt: null,
  };
  private currentStatus: AgentStatus = 'DISCONNECTED';
  private running = false;
  private loop: Promise<void> = Promise.resolve();
  private stopController = new AbortController();
  private wake: (() => void) | null = null;
  private delayMs: number;

  constructor(options: AgentClientOptions) {
    this.options = options;
    this.now = options.now ?? Date.now;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.delayMs = this.backoff.initialMs;
  }

  get status(): AgentStatus {
    return this.currentStatus;
  }

  get counters(): Readonly<AgentCounters> {
    return { ...this.stats };
  }

  /** The devices of the last /probe, null before the first. */
  get devices(): readonly Device[] | null {
    return this.devicesSeen;
  }

  /** Where sampling continues (undefined before the saved position was loaded). */
  get nextPosition(): AgentPosition | null | undefined {
    return this.position && { ...this.position };
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopController = new AbortController();
    this.loop = this.run();
  }

  /** Stops polling; an in-flight request is aborted. Resolves when the loop has ended. */
  async stop(): Promise<void> {
    this.running = false;
    this.stopController.abort();
    this.wake?.();
    await this.loop;
    this.setStatus('DISCONNECTED');
  }

  private async run(): Promise<void> {
    this.setStatus('CONNECTING');
    while (this.running) {
      const step = await this.step();
      if (!this.running) break;
      if (!step.ok) {
        this.setStatus('DISCONNECTED');
        this.report(step.error);
        const delay = this.delayMs;
        this.delayMs = nextBackoffMs(delay, this.backoff);
        await this.pause(delay);
        continue;
      }
      this.delayMs = this.backoff.initialMs;
      this.setStatus('CONNECTED');
      // Behind the agent (a full page, or a probe/current just done): ask again at once.
      if (!step.more) await this.pause(this.options.intervalMs ?? 1_000);
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }

  /**
   * One unit of work: probe when the devices are not known, else /current or one /sample page.
   * Never throws; the polling loop calls it, and tests can drive it request by request.
   */
  async step(): Promise<AgentStep> {
    try {
      if (this.devicesSeen === null) return await this.probe();
      if (this.position === undefined) this.position = await this.options.loadSequence();
      if (this.position === null) return await this.current();
      return await this.sample(this.position);
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error : new Error(String(error)) };
    }
  }

  private async probe(): Promise<AgentStep> {
    const doc = await this.fetchDocument('probe');
    if (doc.kind !== 'devices') throw this.unexpected('probe', doc);
    this.devicesSeen = doc.devices;
    this.options.onProbe?.(doc.devices, doc.instanceId);
    return { ok: true, action: 'probe', observations: 0, more: true };
  }

  private async current(): Promise<AgentStep> {
    const doc = await this.fetchDocument('current');
    if (doc.kind !== 'streams') throw this.unexpected('current', doc);
    await this.deliver(doc.observations, { source: 'current', header: doc.header });
    this.position = { instanceId: doc.header.instanceId, nextSequence: doc.header.nextSequence };
    await this.options.saveSequence({ ...this.position });
    return { ok: true, action: 'current', observations: doc.observations.length, more: true };
  }

  private async sample(from: AgentPosition): Promise<AgentStep> {
    const count = this.options.count ?? 1_000;
    const doc = await this.fetchDocument(`sample?from=${from.nextSequence}&count=${count}`);
    if (doc.kind === 'error') {
      if (doc.instanceId !== null && doc.instanceId !== from.instanceId)
        return this.restarted(from, doc.instanceId);
      if (doc.errors.some((e) => e.code === 'OUT_OF_RANGE')) return this.overrun(from, null, doc.instanceId);
      throw this.unexpected('sample', doc);
    }
    if (doc.kind !== 'streams') throw this.unexpected('sample', doc);
    const { header } = doc;
    if (header.instanceId !== from.instanceId) return this.restarted(from, header.instanceId);
    if (header.firstSequence > from.nextSequence)
      return this.overrun(from, header.firstSequence, header.instanceId);
    if (header.nextSequence < from.nextSequence) {
      // Same instance but the agent is behind us: it cannot be trusted to continue; start over.
      return this.restarted(from, header.instanceId);
    }
    // An agent may answer with items before `from` (it should not); they were handed over already.
    const fresh = doc.observations.filter((o) => o.sequence >= from.nextSequence);
    await this.deliver(fresh, { source: 'sample', header });
    this.position = { instanceId: header.instanceId, nextSequence: header.nextSequence };
    await this.options.saveSequence({ ...this.position });
    return {
      ok: true,
      action: 'sample',
      observations: fresh.length,
      more: header.nextSequence <= header.lastSequence,
    };
  }

  /** The buffer moved past `from`: note the gap, then /current gives the present state. */
  private async overrun(
    from: AgentPosition,
    firstSequence: number | null,
    instanceId: string | null,
  ): Promise<AgentStep> {
    this.noteGap({
      reason: 'overrun',
      wanted: from.nextSequence,
      firstSequence,
      previousInstanceId: from.instanceId,
      instanceId,
    });
    return this.current();
  }

  /** The agent restarted: its devices may have changed and its sequences restarted. */
  private restarted(from: AgentPosition, instanceId: string | null): AgentStep {
    this.noteGap({
      reason: 'restart',
      wanted: from.nextSequence,
      firstSequence: null,
      previousInstanceId: from.instanceId,
      instanceId,
    });
    this.devicesSeen = null;
    this.position = null;
    return { ok: true, action: 'sample', observations: 0, more: true };
  }

  private noteGap(gap: Omit<AgentGap, 'at'>): void {
    this.stats.gaps++;
    callListener(() => this.options.onGap?.({ ...gap, at: this.now() }), this.options.onError);
  }

  private async deliver(observations: AgentObservation[], batch: AgentBatch): Promise<void> {
    await this.options.onObservations(observations, batch);
    this.stats.observations += observations.length;
  }

  private async fetchDocument(path: string): Promise<AgentDocument> {
    const url = `${this.options.baseUrl.replace(/\/+$/, '')}/${path}`;
    this.stats.requests++;
    let body: string;
    let status: number;
    try {
      const signal = AbortSignal.any([
        this.stopController.signal,
        AbortSignal.timeout(this.options.requestTimeoutMs ?? 30_000),
      ]);
      ({ status, body } = await (this.options.get ?? fetchGet)(url, signal));
    } catch (error) {
      this.stats.httpErrors++;
      throw new StepError(`GET ${url}: ${(error as Error).message}`);
    }
    const receivedAt = this.now();
    this.stats.lastResponseAt = receivedAt;
    callListener(() => this.options.onResponse?.(receivedAt), this.options.onError);
    const doc = parseAgentDocument(body, receivedAt, this.options.keyBy);
    // cppagent answers OUT_OF_RANGE with a 4xx status and an MTConnectError body: that one we read.
    if (status >= 400 && doc.kind !== 'error') {
      this.stats.httpErrors++;
      throw new StepError(`GET ${url}: HTTP ${status}`);
    }
    if (doc.kind === 'invalid') {
      this.stats.rejectedDocuments++;
      throw new StepError(`GET ${url}: ${doc.reason}`);
    }
    this.stats.documents++;
    if (doc.kind === 'streams') this.stats.rejected += doc.rejected;
    return doc;
  }

  private unexpected(request: string, doc: AgentDocument): Error {
    if (doc.kind === 'error') {
      this.stats.httpErrors++;
      const text = doc.errors.map((e) => `${e.code}: ${e.message}`).join('; ');
      return new StepError(`${request}: agent error ${text || '(no detail)'}`);
    }
    this.stats.rejectedDocuments++;
    return new StepError(`${request}: unexpected ${doc.kind} document`);
  }

  private setStatus(status: AgentStatus): void {
    if (status === this.currentStatus) return;
    this.currentStatus = status;
    callListener(() => this.options.onStatus?.(status, this.now()), this.options.onError);
  }

  private report(error: unknown): void {
    reportTo(this.options.onError, error);
  }
}

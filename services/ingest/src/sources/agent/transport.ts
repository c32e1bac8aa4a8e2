import { SOURCE_ADDRESS_REFUSED } from '@takt/domain';
import type { Device } from '../devices/devices';
import type { LinkInput, Transport, TransportEnv, TransportStatus } from '../transport';
import { noCounters } from '../transport';
import { AgentClient } from './agent-client';
import { guardedGet } from './guarded-get';

/** An MTConnect agent the worker polls (/probe, /current, /sample) for one machine. */
export function agentTransport(link: LinkInput, env: TransportEnv): Transport {
  const { source } = link;
  const { now, log } = env;
  let status: TransportStatus = 'CONNECTING';
  const counters = noCounters();
  const name = `agent ${source.baseUrl} (${source.machineName})`;
  // The client's own counts of what it could not read, as far as they are in `counters` already.
  let seen = { rejected: 0, rejectedDocuments: 0 };
  /** Mutates `counters`: a document with unreadable observations is one rejected line; an unusable one too. */
  const countRejects = () => {
    const c = client.counters;
    const bad = c.rejected - seen.rejected;
    const badDocuments = c.rejectedDocuments - seen.rejectedDocuments;
    seen = { rejected: c.rejected, rejectedDocuments: c.rejectedDocuments };
    counters.rejected += bad + badDocuments;
    counters.rejectedLines += badDocuments + (bad > 0 ? 1 : 0);
    if (badDocuments > 0) {
      counters.lines += badDocuments;
      counters.lastLineAt = now();
    }
    if (bad > 0)
      env.logLimited(`${source.sourceId} rejected`, `[ingest] ${name}: ${bad} unreadable observation(s)`);
  };
  /** Fields of the agent's /probe stand in for an adapter mapping the machine does not have. */
  let fieldsFromProbe = link.fields.size === 0;
  const onProbe = (devices: Device[]) => {
    if (!fieldsFromProbe) return;
    // Mutates link.fields in place: the pipeline (and a rebuild's) reads the same map.
    link.fields.clear();
    for (const item of devices.flatMap((d) => d.dataItems)) {
      const meaning = { type: item.type.toUpperCase(), subType: item.subType };
      if (!link.fields.has(item.id)) link.fields.set(item.id, meaning);
      if (item.name !== null) link.fields.set(item.name, meaning);
    }
    fieldsFromProbe = true;
  };
  const client = new AgentClient({
    baseUrl: source.baseUrl ?? '',
    intervalMs: source.pollIntervalMs ?? 1000,
    now,
    ...(env.backoff ? { backoff: env.backoff } : {}),
    // Every request, and every redirect, only to addresses the source policy allows (decision 0985).
    get: guardedGet(env.sourcePolicy),
    loadSequence: () =>
      source.agentInstanceId != null && source.agentNextSequence != null
        ? { instanceId: source.agentInstanceId, nextSequence: source.agentNextSequence }
        : null,
    // Saved with the batch's observations in one transaction (worker/batch-writer.ts), so a crash repeats,
    // never skips.
    saveSequence: (position) => link.savePosition(position),
    onObservations: (obs) => {
      const at = now();
      counters.lines += 1;
      counters.observations += obs.length;
      counters.lastLineAt = at;
      countRejects();
      link.received(obs, at, true);
    },
    onProbe,
    // Every answer proves the link, an empty sample of an idle machine too.
    onResponse: (at) => link.heartbeat(at),
    // Data the agent's buffer dropped before we read it is lost for good: say so (the agent's /current
    // gives the present state, so derivation goes on).
    onGap: (gap) =>
      log(
        gap.reason === 'overrun'
          ? `[ingest] ${name}: the agent's buffer moved past sequence ${gap.wanted}` +
              (gap.firstSequence != null
                ? `; ${gap.firstSequence - gap.wanted} observation(s) lost`
                : '; observations lost') +
              ', continuing from /current'
          : `[ingest] ${name}: the agent restarted (instance ${gap.previousInstanceId} → ${gap.instanceId ?? '?'}), continuing from /current`,
      ),
    onStatus: (s, at) => {
      const next = s === 'CONNECTED' || s === 'DISCONNECTED' ? s : 'CONNECTING';
      if (next !== status) link.connection(next, at);
      status = next;
    },
    onError: (err) => {
      countRejects();
      // A refusal by the source policy repeats at every retry: said once, then at most once a minute.
      if (err.message.includes(SOURCE_ADDRESS_REFUSED))
        env.logLimited(`${source.sourceId} refused`, `[ingest] ${name}: ${err.message}`);
      else log(`[ingest] ${name}: ${err.message}`);
    },
  });
  client.start();
  return {
    get status() {
      return status;
    },
    counters,
    stop: () => client.stop(),
  };
}

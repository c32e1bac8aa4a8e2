// Decision 1203: a batch visits only the links marked since their last batch (a line, a link change, a heartbeat the
// tick hands over), not every link the node holds. A silent link's change that comes from the clock (the tick's
// heartbeat after a quiet spell) and a link dropped are still stored by the next batch while another machine is busy,
// and a batch of one busy machine does not take from the silent ones.
import { describe, expect, it, vi } from 'vitest';
import { DIALECTS, freshDb } from '@takt/db/testing';
import { connectedTransport, handWriterOptions } from '../testing/loopback-links';
import { aShdrMachine } from '../testing/shdr-machine';
import { BatchWriter } from './batch-writer';
import { Link, LinkMap } from './link';
import { checkLinks } from './link-checks';
import { loadFieldMaps, loadSources } from './store-reads';

const T0 = Date.UTC(2026, 10, 30, 8);

describe.each(DIALECTS)('a batch visits the links with something to take (%s)', (dialect) => {
  it('stores a silent link’s heartbeat and drop among a busy machine’s batches, and leaves the others unvisited', async () => {
    const t = await freshDb(dialect);
    try {
      for (const [i, name] of ['Busy', 'Silent', 'Dropped'].entries())
        await aShdrMachine(t.db, 40_000 + i, name);
      const sources = await loadSources(t.db);
      const fields = await loadFieldMaps(
        t.db,
        sources.map((s) => s.machineId),
      );
      let clock = T0;
      const links = new LinkMap();
      const writer = new BatchWriter(handWriterOptions(t.db, () => clock, links));
      const byName = new Map<string, Link>();
      for (const s of sources) {
        const link = new Link(s, fields.get(s.machineId) ?? new Map(), clock, writer);
        link.transport = connectedTransport();
        links.set(s.sourceId, link);
        byName.set(s.machineName, link);
        link.connection('CONNECTED', clock);
        link.received([{ ts: clock, key: 'execution', value: 'ACTIVE', kind: 'value' }], clock, true);
      }
      await writer.flush(true);
      const [busy, silent, dropped] = ['Busy', 'Silent', 'Dropped'].map((n) => byName.get(n)!) as [
        Link,
        Link,
        Link,
      ];
      const liveOf = (link: Link) =>
        t.db
          .selectFrom('machine_live')
          .selectAll()
          .where('company_id', '=', link.source.companyId)
          .where('machine_id', '=', link.source.machineId)
          .executeTakeFirstOrThrow();
      const busyLine = (value: string) => {
        clock += 1_000;
        busy.received([{ ts: clock, key: 'execution', value, kind: 'value' }], clock, true);
      };

      // Only the busy machine sends: the silent links are not taken from.
      const takes = vi.spyOn(silent.pipeline, 'take');
      const lives = vi.spyOn(silent.pipeline, 'liveRow');
      busyLine('STOPPED');
      await writer.flush();
      expect(takes).not.toHaveBeenCalled();
      expect(lives).not.toHaveBeenCalled();
      expect((await liveOf(busy)).execution).toBe('STOPPED');

      // A minute of silence later the tick hands the silent link a heartbeat: the next batch, asked by the busy
      // machine's line, stores it in the silent machine's live row.
      clock += 60_000;
      await checkLinks(t.db, links.values(), () => clock, undefined);
      const tickAt = clock;
      busyLine('ACTIVE');
      await writer.flush();
      expect(takes).toHaveBeenCalledTimes(1);
      expect(Number((await liveOf(silent)).last_heartbeat)).toBe(tickAt);

      // A link dropped: its DISCONNECTED (the machine's No data from then) is stored with the busy machine's batch.
      dropped.transport.status = 'DISCONNECTED';
      dropped.connection('DISCONNECTED', clock);
      busyLine('STOPPED');
      await writer.flush();
      expect((await liveOf(dropped)).connection).toBe('DISCONNECTED');
      const states = await t.db
        .selectFrom('state_intervals')
        .select(['state'])
        .where('company_id', '=', dropped.source.companyId)
        .where('machine_id', '=', dropped.source.machineId)
        .orderBy('start_at')
        .execute();
      expect(states.at(-1)?.state).toBe('UNAVAILABLE');
      writer.close();
    } finally {
      await t.cleanup();
    }
  });
});

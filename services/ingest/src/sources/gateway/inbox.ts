import type { Kysely } from 'kysely';
import type { Database } from '@takt/db';
import { takeInbox } from '@takt/db';
import { boundToWindow, parseShdrLine } from '../shdr/shdr';
import { fedByInbox } from '../source';
import type { LinkInput } from '../transport';

/** Inbox lines derived per take. */
export const INBOX_TAKE = 5000;

/**
 * The inbox lines taken but not yet deleted: the batch that stores what they derived deletes them
 * (worker/batch-writer.ts).
 */
export interface InboxLedger {
  /** A snapshot of the lines marked done and not yet deleted. */
  inboxDoneIds(): ReadonlySet<string>;
  /** `machineId`: the line's machine (a node that loses the machine's lease leaves its lines to the next holder). */
  markInboxDone(id: string, machineId: string): void;
}

/**
 * Gateway pushes (and the test screen's simulated lines, decision 1100) wait in the inbox (already stored by the
 * API, with their observations);
 * derive them in arrival order. A gateway source's link has a passive transport this drives: the first
 * line connects it, and each line counts against it.
 */
export async function drainInbox(
  db: Kysely<Database>,
  links: Iterable<LinkInput>,
  ledger: InboxLedger,
  take = INBOX_TAKE,
): Promise<void> {
  const byMachine = new Map(
    [...links].filter((l) => fedByInbox(l.source.kind)).map((l) => [l.source.machineId, l]),
  );
  if (byMachine.size === 0) return;
  const rows = await takeInbox(db, [...byMachine.keys()], take);
  // Lines taken but not yet deleted (their batch is not written yet) come back in the next take.
  const pending = ledger.inboxDoneIds();
  for (const r of rows) {
    if (pending.has(r.id)) continue;
    const link = byMachine.get(r.machine_id);
    if (!link) continue;
    if (link.transport.status !== 'CONNECTED') {
      link.transport.status = 'CONNECTED';
      link.connection('CONNECTED', r.received_at);
    }
    // Decision 0980: a line stored before the window was enforced (year 1, 9999) is not derived.
    const parsed = boundToWindow(parseShdrLine(r.line, r.received_at, link.kinds), r.received_at);
    const c = link.transport.counters;
    c.lines += 1;
    c.lastLineAt = r.received_at;
    if (parsed.type === 'data') {
      c.observations += parsed.observations.length;
      c.rejected += parsed.rejected;
      if (parsed.rejected > 0) c.rejectedLines += 1;
    }
    // The push stored the observations already: derive only.
    if (parsed.type === 'data') link.received(parsed.observations, r.received_at, false);
    else link.heartbeat(r.received_at, false);
    ledger.markInboxDone(r.id, r.machine_id);
  }
}

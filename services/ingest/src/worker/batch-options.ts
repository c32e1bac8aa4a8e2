import type { Kysely } from 'kysely';
import type { Database } from '@takt/db';
import type { DispatchHook, DispatchSetting } from './auto-dispatch';
import type { BatchFence } from './leases';
import type { Link, LinkMap } from './link';

export interface BatchWriterOptions {
  db: Kysely<Database>;
  now: () => number;
  log: (message: string) => void;
  /** The worker's links, read at each batch. */
  links: LinkMap;
  /**
   * How often each source's counters are written at most (decision 1145; a flush may ask for them sooner), a slice of
   * the sources a batch (decision 1243); default 0, with every batch.
   */
  countersEveryMs?: number;
  /** The local monotonic clock of the counters' periods: performance.now() by default (tests drive it by hand). */
  monotonic?: () => number;
  /**
   * Lines start their batch (decision 1163): a line arriving while no batch waits to start asks for one, begun once
   * the running one ended and at least this long after the last one began (the timer's flush still writes the rest:
   * live rows, link changes). Off (undefined) by default: batches then follow the flush timer and `flush()` only.
   */
  arrivalGapMs?: number | null;
  /** Re-derives a link whose pipeline asks for it, before the batch is taken (worker/rebuild.ts). */
  rebuild: (link: Link) => Promise<void>;
  /** Called after each stored batch with the machines it touched. */
  onWritten?: (machines: Array<{ companyId: string; machineId: string }>) => void;
  /**
   * Monitoring, once per committed batch with observations: how many, the earliest observation time, now, and where
   * the batch's time went (bench/ingest-work.ts prints it; decision 1163).
   */
  onStored?: (count: number, oldestTs: number, at: number, times: BatchTimes) => void;
  /** Auto job dispatch (decision 1094): after each committed batch, the stored values that name a job. */
  onDispatch?: DispatchHook;
  /** The machines that dispatch, as last read with the sources (decision 1120). */
  dispatchOf?: (machineId: string) => DispatchSetting | undefined;
  /** A machine set aside: its own write failed while the others' went on (decision 1121). */
  onSetAside?: (machineId: string) => void;
  /**
   * Several nodes (decision 0970): made before each batch's transaction with the machines the batch writes for (its
   * statement built then, decision 1177), and run first in it (decision 1199); throws, or its statement fails the
   * transaction, when one of their leases is no longer this node's (the batch is then kept and retried).
   */
  fence?: (machineIds: ReadonlySet<string>) => BatchFence;
  /**
   * Several nodes: whether this node still derives the machine. What waits for a machine it gave up (a lost
   * lease) is dropped before each batch: the next holder receives and derives it itself.
   */
  owns?: (machineId: string) => boolean;
}

/** Where a committed batch's time went (epoch ms, the worker's clock): the lag breakdown of decision 1163. */
export interface BatchTimes {
  /** The first flush that this batch answers was asked (a timer's tick, or a caller's flush). */
  asked: number;
  /** Its write began (the batch before it and the work queued between batches were done). */
  started: number;
  /** Of the wait before `started`: the work queued between batches (`enqueue`) since the batch before. */
  between: number;
  /** Setup reads and rebuilds before the batch were done. */
  prepared: number;
  /** The pipelines' changes and the live rows were taken (the engine's CPU). */
  taken: number;
  /** Sources whose line counters it wrote (a slice of those due, decision 1243; decision 1238 looks for them). */
  counters: number;
}

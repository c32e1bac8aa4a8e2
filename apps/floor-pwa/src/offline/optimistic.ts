import type { SyncCommandType } from '@takt/domain';
import type { CommandDisplay, CommandRef } from './commands';
import { refTo } from './commands';

// The workcenter as the operator should see it: the last data pulled from the server with every queued or
// just-confirmed action folded over it (ARCHITECTURE.md: "applied optimistically to the local view"). A pure
// reducer, so "a pending action looks done" is tested without a browser (UI.md "Floor").

export interface JobState {
  jobId: string;
  jobName: string | null;
  /** The job run = labor activity set id (decision 0300); null while the start is still queued. */
  runId: string | null;
  /** The queued start_job command whose answer will carry runId. */
  runRef: string | null;
  setup: boolean;
  setupSince: number | null;
  stageId: string | null;
  expectedSetupMs: number | null;
  startedAt: number | null;
}

export interface OperatorState {
  operatorId: string | null;
  name: string;
  startAt: number;
}

export interface DowntimeEntry {
  start: number;
  /** null while the downtime is still going on. */
  end: number | null;
  reason: string | null;
  color: string | null;
  message: string | null;
  planned: boolean | null;
  /** At or below the company's list filter duration (from the server; see downtime-list.ts). */
  short: boolean;
  setup: boolean;
  annotationTypeId: string | null;
  /** A No data piece of a period (decision 1060): listed, never selectable for Categorize Multiple. */
  noData?: boolean;
}

export type PendingMark = 'job' | 'operator' | 'reject' | 'parts' | `downtime:${number}`;

export interface WorkcenterView {
  job: JobState | null;
  operator: OperatorState | null;
  downtime: DowntimeEntry[];
  /** Parts rejected by actions not yet reflected in the pulled data. */
  rejectedParts: number;
  /** Parts added (or removed by Undo) on a manual work center, not yet in the pulled part count. */
  partsAdded: number;
  /**
   * What each manual add still in the overlays added, oldest first: the server's Undo removes only the last
   * manual adjustment (services/api rejects.ts undoManualParts), so an optimistic Undo takes back that one.
   */
  manualAdds: readonly number[];
  /** Which parts of the view show a small "not yet confirmed" mark. */
  pending: ReadonlySet<PendingMark>;
}

/** A local change written in the same transaction as its outbox entry (outbox.ts). */
export interface Overlay {
  commandId: string;
  seq: number;
  machineId: string;
  type: SyncCommandType;
  payload: Record<string, unknown>;
  occurredAt: number;
  display: CommandDisplay;
  /** pending: in the outbox; confirmed: the server applied it but the next pull has not brought it yet. */
  state: 'pending' | 'confirmed';
  result?: unknown;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function runIdOf(result: unknown): string | null {
  return typeof result === 'object' && result !== null ? str((result as { id?: unknown }).id) : null;
}

/** Applies one action to the view (never mutates its input). */
export function applyOverlay(view: WorkcenterView, o: Overlay): WorkcenterView {
  const p = o.payload;
  const d = o.display;
  const pending = new Set(view.pending);
  const mark = (m: PendingMark) => {
    if (o.state === 'pending') pending.add(m);
  };
  let next: WorkcenterView = view;
  switch (o.type) {
    case 'start_job': {
      const setup = p.setup === true;
      next = {
        ...view,
        job: {
          jobId: str(p.jobId) ?? '',
          jobName: d.jobName ?? null,
          runId: runIdOf(o.result),
          runRef: o.state === 'pending' ? o.commandId : null,
          setup,
          setupSince: setup ? o.occurredAt : null,
          stageId: setup ? str(p.setupStageId) : null,
          expectedSetupMs: setup ? (d.expectedSetupMs ?? null) : null,
          startedAt: o.occurredAt,
        },
      };
      mark('job');
      break;
    }
    case 'stop_job':
      next = { ...view, job: null };
      mark('job');
      break;
    case 'setup_stage':
      if (view.job) {
        next = { ...view, job: { ...view.job, stageId: str(p.setupStageId) } };
        mark('job');
      }
      break;
    case 'start_production':
      if (view.job) {
        next = { ...view, job: { ...view.job, setup: false, stageId: null } };
        mark('job');
      }
      break;
    case 'categorize_downtime': {
      const start = num(p.start);
      const i = view.downtime.findIndex((e) => e.start === start);
      if (start !== null && i >= 0) {
        const downtime = [...view.downtime];
        downtime[i] = {
          ...downtime[i]!,
          reason: d.reasonName ?? null,
          color: d.reasonColor ?? null,
          message: str(p.message),
          planned: typeof p.planned === 'boolean' ? p.planned : null,
          annotationTypeId: str(p.category_id),
          // The operator's reason wins over No data (decision 1010).
          noData: false,
        };
        next = { ...view, downtime };
        mark(`downtime:${start}`);
      }
      break;
    }
    case 'split_downtime': {
      const i = view.downtime.findIndex((e) => e.end === null && e.start < o.occurredAt);
      if (i >= 0) {
        const ended = { ...view.downtime[i]!, end: o.occurredAt };
        const fresh: DowntimeEntry = {
          ...ended,
          start: o.occurredAt,
          end: null,
          reason: null,
          color: null,
          message: null,
          planned: null,
          annotationTypeId: null,
          short: true,
        };
        const downtime = [...view.downtime];
        downtime.splice(i, 1, ended, fresh);
        next = { ...view, downtime };
        mark(`downtime:${ended.start}`);
        mark(`downtime:${fresh.start}`);
      }
      break;
    }
    case 'reject_part':
      next = { ...view, rejectedParts: view.rejectedParts + (num(p.scrapcount) ?? 0) };
      mark('reject');
      break;
    case 'part_correction':
      break;
    case 'manual_add_part': {
      const n = num(p.count) ?? 1;
      next = { ...view, partsAdded: view.partsAdded + n, manualAdds: [...view.manualAdds, n] };
      mark('parts');
      break;
    }
    case 'manual_undo': {
      // The last add still folded here, else what the device knew the last add to be when Undo was queued.
      const n = view.manualAdds.at(-1) ?? d.count ?? 1;
      next = { ...view, partsAdded: view.partsAdded - n, manualAdds: view.manualAdds.slice(0, -1) };
      mark('parts');
      break;
    }
    case 'operator_login':
      next = {
        ...view,
        operator: { operatorId: str(p.operatorId), name: d.operatorName ?? '', startAt: o.occurredAt },
      };
      mark('operator');
      break;
    case 'operator_logout':
      next = { ...view, operator: null };
      mark('operator');
      break;
  }
  return { ...next, pending };
}

/** The server's view with the overlays applied in the order the operator acted. */
export function foldOverlays(base: WorkcenterView, overlays: readonly Overlay[]): WorkcenterView {
  return [...overlays].sort((a, b) => a.seq - b.seq).reduce(applyOverlay, base);
}

/**
 * The run id to send with a stop or a setup command: the known id, or a reference to the queued start
 * (commands.ts) that the outbox resolves when the server answers it.
 */
export function runIdOrRef(job: JobState): string | CommandRef | null {
  if (job.runId) return job.runId;
  if (job.runRef) return refTo(job.runRef);
  return null;
}

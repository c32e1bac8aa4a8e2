import type { Kysely } from 'kysely';
import type { Database, CompanyScope } from '@takt/db';
import { companyScope, rawFloor } from '@takt/db';
import { csvLine } from '../http/csv';
import { ApiError, invalidInput, notFound } from '../http/errors';
import { sendMail } from '../mail/send';
import type { MailTransport } from '../mail/transport';
import {
  claimNextEventExport,
  eventExportCsv,
  failEventExport,
  finishEventExport,
  getEventExport,
  insertEventExport,
  observationPage,
} from '../repositories/event-exports';
import type { EventExport } from '../repositories/event-exports';
import { getMachine } from '../repositories/machines';
import { getUser } from '../repositories/users';
import type { ServiceCtx } from './context';
import { userCallerOf } from './email-notifications';
import { everyInterval } from '../workers/interval';

// Event export (live-operations §5, §7, §8; decision 0702): the request is queued and answered at once; a
// worker in the API process builds the CSV of the machine's stored observations and mails the link.

export const EVENT_EXPORT_TEXTS = {
  /** live-operations §8 success toast. */
  queued: "We'll send that to you within an hour.",
  startBeforeEnd: 'Start Date must be before End Date',
  tooOld: 'Start Date cannot be more than 2 years ago',
  future: 'End Date cannot be in the future',
  notReady: 'The export is not ready yet.',
  failed: 'The export could not be built. Please request it again.',
  /** Decision 1132: raw observations older than TAKT_RAW_RETENTION_DAYS are removed. */
  removedBefore: (floor: string) =>
    `Machine data before ${floor} is no longer kept (raw data retention), so the export holds none before then.`,
} as const;

/** live-operations §9 "Export minimum 2 years back": the same calendar date two years earlier (UTC). */
export function exportEarliest(now: number): number {
  const d = new Date(now);
  d.setUTCFullYear(d.getUTCFullYear() - 2);
  return d.getTime();
}

export interface EventExportRequest {
  machineId: string;
  start: number;
  end: number;
  filterKeys: string[];
}

/** A browser clock a little ahead of the server's may still ask "until now"; the end is clamped to now. */
export const CLOCK_SKEW_MS = 60_000;

const problem = (field: string, message: string) => ({ field, code: 'out_of_range', message });

/** POST /api/reports/event/queue: validate, queue, answer with the §8 text. */
export async function queueEventExport(
  ctx: ServiceCtx,
  input: EventExportRequest,
  linkBase: string,
): Promise<{ id: string; message: string }> {
  const { user } = userCallerOf(ctx);
  // live-operations §5: start before end, minimum two years back, maximum now.
  const issues = [
    ...(input.start < exportEarliest(ctx.now) ? [problem('start', EVENT_EXPORT_TEXTS.tooOld)] : []),
    ...(input.end > ctx.now + CLOCK_SKEW_MS ? [problem('end', EVENT_EXPORT_TEXTS.future)] : []),
  ];
  if (issues.length > 0) throw invalidInput(issues);
  if (!(await getMachine(ctx.scope, input.machineId))) throw notFound('Machine');
  const id = await insertEventExport(ctx.scope, {
    userId: user.id,
    machineId: input.machineId,
    start: input.start,
    end: Math.min(input.end, ctx.now),
    filterKeys: [...new Set(input.filterKeys)],
    linkBase,
    createdAt: ctx.now,
  });
  return { id, message: EVENT_EXPORT_TEXTS.queued };
}

/** GET /api/reports/export/download/:id: the finished CSV of the caller's company. */
export async function eventExportDownload(
  ctx: ServiceCtx,
  id: string,
): Promise<{ filename: string; csv: string }> {
  const job = await getEventExport(ctx.scope, id);
  if (!job) throw notFound('Export');
  if (job.status === 'failed') throw new ApiError(409, 'EXPORT_FAILED', EVENT_EXPORT_TEXTS.failed);
  const csv = job.status === 'done' ? await eventExportCsv(ctx.scope, id) : null;
  if (csv == null) throw new ApiError(409, 'EXPORT_NOT_READY', EVENT_EXPORT_TEXTS.notReady);
  const machine = await getMachine(ctx.scope, job.machineId);
  const day = new Date(job.start).toISOString().slice(0, 10);
  const name = (machine?.name ?? 'machine').replace(/[^\w.-]+/g, '_');
  return { filename: `events-${name}-${day}.csv`, csv };
}

const PAGE = 5000;

/** The CSV of one export: timestamp (ISO, UTC), ts (epoch ms), key, value; oldest first. */
export async function buildEventExportCsv(
  scope: CompanyScope,
  job: Pick<EventExport, 'machineId' | 'start' | 'end' | 'filterKeys'>,
): Promise<{ csv: string; rowCount: number }> {
  const parts = [csvLine(['timestamp', 'ts', 'key', 'value'])];
  let rowCount = 0;
  for (let offset = 0; ; offset += PAGE) {
    const rows = await observationPage(scope, {
      machineId: job.machineId,
      start: job.start,
      end: job.end,
      keys: job.filterKeys,
      offset,
      limit: PAGE,
    });
    for (const r of rows) parts.push(csvLine([new Date(r.ts).toISOString(), r.ts, r.key, r.value]));
    rowCount += rows.length;
    if (rows.length < PAGE) break;
  }
  return { csv: parts.join(''), rowCount };
}

export interface ExportWorkerDeps {
  db: Kysely<Database>;
  now: () => number;
  mail: MailTransport;
  log?: (message: string) => void;
}

/** A claim older than this belongs to a process that died; another process takes the export over. */
export const EXPORT_CLAIM_STALE_MS = 15 * 60_000;

async function runOne(deps: ExportWorkerDeps, job: EventExport): Promise<void> {
  const scope = companyScope(deps.db, job.companyId);
  const [user, machine] = await Promise.all([getUser(scope, job.userId), getMachine(scope, job.machineId)]);
  let text: string;
  let subject: string;
  try {
    const built = await buildEventExportCsv(scope, job);
    await finishEventExport(scope, job.id, { ...built, finishedAt: deps.now() });
    const link = `${job.linkBase}/api/reports/export/download/${job.id}`;
    subject = `Your event export for ${machine?.name ?? 'a machine'} is ready`;
    text =
      `Your export of ${built.rowCount} events from ${new Date(job.start).toISOString()} to ` +
      `${new Date(job.end).toISOString()} is ready:\n\n${link}\n\nOpen it while logged in to Takt.\n`;
    // Raw observations before the floor are no longer kept (decision 1132): say where the file's data begins.
    const floor = await rawFloor(deps.db);
    if (job.start < floor) text += `\n${EVENT_EXPORT_TEXTS.removedBefore(new Date(floor).toISOString())}\n`;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    deps.log?.(`[export] ${job.id} failed: ${message}`);
    await failEventExport(scope, job.id, message, deps.now());
    subject = 'Your event export could not be built';
    text = `${EVENT_EXPORT_TEXTS.failed}\n`;
  }
  if (!user) return;
  const sent = await sendMail(
    scope,
    deps.mail,
    { userId: user.id, to: user.email, subject, text },
    deps.now(),
  );
  if (!sent.ok) deps.log?.(`[export] ${job.id}: mail to ${user.email} failed: ${sent.error}`);
}

/** Build every queued export (each claimed by one process only); returns how many were handled. */
export async function runEventExports(deps: ExportWorkerDeps): Promise<number> {
  let handled = 0;
  for (;;) {
    const now = deps.now();
    const job = await claimNextEventExport(deps.db, now, now - EXPORT_CLAIM_STALE_MS);
    if (!job) return handled;
    await runOne(deps, job);
    handled += 1;
  }
}

/** Poll the queue every `intervalMs` in this API process (main.ts); stop() waits for the running round. */
export function startEventExportWorker(deps: ExportWorkerDeps, intervalMs = 5000) {
  return everyInterval(
    () => runEventExports(deps),
    intervalMs,
    (err) => deps.log?.(`[export] worker: ${err.message}`),
  );
}

import type { SyncCommandType, SyncError } from '@takt/domain';
import { t } from '@takt/ui';

// live-operations §8: the heading the workcenter errors modal puts over a command the server refused, above
// the server's own text. Commands the catalogue names no failure text for show their action name.

export type ErrorTitleKey =
  | 'startJob.failed'
  | 'reject.failed'
  | 'downtime.reasonFailed'
  | 'setup.somethingWrong'
  | `command.${SyncCommandType}`;

export function errorTitleKey(type: SyncCommandType): ErrorTitleKey {
  switch (type) {
    case 'start_job':
      return 'startJob.failed'; // "Job could not be started"
    case 'reject_part':
    case 'part_correction':
      return 'reject.failed'; // "Parts could not be rejected."
    case 'categorize_downtime':
    case 'split_downtime':
      return 'downtime.reasonFailed'; // "Downtime reason could not be saved."
    case 'setup_stage':
    case 'start_production':
      return 'setup.somethingWrong'; // "Something went wrong"
    default:
      return `command.${type}`;
  }
}

/**
 * What the refused-actions banner shows (ARCHITECTURE.md "Offline sync contract": nothing is dropped silently, whichever
 * machine is on screen). `entries` are all refusals on this device in the order they were refused; the banner names the
 * latest of the machine on screen, else the latest of any machine, and counts them all.
 */
export function refusalSummary<E extends { machineId: string }>(
  entries: readonly E[],
  machineId: string,
): { latest: E | null; count: number; elsewhere: number } {
  const here = entries.filter((e) => e.machineId === machineId);
  return {
    latest: here.at(-1) ?? entries.at(-1) ?? null,
    count: entries.length,
    elsewhere: entries.length - here.length,
  };
}

/**
 * The issue code of a refused end of setup whose run had already left setup: an earlier end of setup for that
 * run (a delivery whose answer was lost, decision 0300, or another tablet) fixed the part count. The server
 * answers 409 NOT_IN_SETUP with this issue (services/api setup.ts notInSetupReason).
 */
const IN_PRODUCTION = 'in_production';

/**
 * The text under the heading of a refused command: the server's own message, except for an end of setup
 * refused after the part count was fixed, which gets live-operations §8 "We fixed the part count and kept N
 * parts, but there was an error going into production. Please try again." with the parts it kept.
 */
export function refusalMessage(r: {
  type: SyncCommandType;
  payload: Record<string, unknown>;
  error: SyncError;
}): string {
  const kept = r.payload.keptParts;
  if (
    r.type === 'start_production' &&
    r.error.code === 'NOT_IN_SETUP' &&
    typeof kept === 'number' &&
    (r.error.issues ?? []).some((i) => i.code === IN_PRODUCTION)
  )
    return t('setup.endFailed', { n: kept });
  return r.error.message;
}

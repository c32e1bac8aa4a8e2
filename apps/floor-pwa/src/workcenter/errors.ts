import type { SyncCommandType } from '@takt/domain';

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

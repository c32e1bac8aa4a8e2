import { isFailureLevel } from '@takt/domain';
import type { MachineNotificationType } from '@takt/domain';

// The rules of a machine notification (reports-admin §3 Machine notification, decisions 0901, 0902), pure so
// they are tested by table: when its condition holds, when an episode begins, continues or ends, and when
// its e-mail is due.

const MIN = 60_000;

/** What one check saw: the condition holds since `since`, or it does not hold. */
export type Observation = { holds: false } | { holds: true; since: number };

/**
 * live-operations §4 tile status: a machine that is not ACTIVE is down, except in SETUP (its own status, the
 * planned work of a job). No live row (never reported) gives no `since` and no downtime to time.
 */
export function downtimeObservation(link: { state: string; since: number | null }): Observation {
  const down = link.state !== 'ACTIVE' && link.state !== 'SETUP';
  return down && link.since !== null ? { holds: true, since: link.since } : { holds: false };
}

/**
 * reports-admin §4 "Utilization: danger if below utilization failure percent, warning if below warning
 * percent": a Failure notification (level 2) waits for danger, a Warning one for warning or danger.
 * Utilization has no "since" of its own: the episode begins when a check first sees it below (`now`).
 */
export function utilizationObservation(
  level: number,
  status: 'success' | 'warning' | 'danger' | 'unavailable' | undefined,
  now: number,
): Observation {
  const below = isFailureLevel(level) ? status === 'danger' : status === 'warning' || status === 'danger';
  return below ? { holds: true, since: now } : { holds: false };
}

export interface EpisodeSoFar {
  since: number;
  seenAt: number;
}

export type Step =
  | { kind: 'idle' }
  | { kind: 'close' }
  | { kind: 'open'; since: number }
  | { kind: 'reopen'; since: number }
  | { kind: 'continue' };

/**
 * The next step of a notification's episode. An episode lasts while every check finds the condition; it
 * ends at the first check that does not (decision 0901). `interrupted`: the condition is known to have
 * lifted between the last check and this one (the machine was ACTIVE meanwhile), so this is a new episode.
 */
export function episodeStep(
  existing: EpisodeSoFar | undefined,
  seen: Observation,
  interrupted: boolean,
): Step {
  if (!seen.holds) return existing ? { kind: 'close' } : { kind: 'idle' };
  if (!existing) return { kind: 'open', since: seen.since };
  return interrupted ? { kind: 'reopen', since: seen.since } : { kind: 'continue' };
}

/**
 * When the e-mail of an episode that began at `since` is due: after the notification's delay. A downtime
 * Failure (level 2) is the tile's danger (live-operations §4: "warning if minutes since statusSince are below
 * downtimefailuredelay, danger if not"), so its delay counts from the moment the machine turned danger.
 */
export function dueAt(
  n: { type: MachineNotificationType; level: number; delayMinutes: number },
  since: number,
  downtimeFailureDelayMinutes: number,
): number {
  const danger = n.type === 'downtime' && isFailureLevel(n.level) ? downtimeFailureDelayMinutes * MIN : 0;
  return since + danger + n.delayMinutes * MIN;
}

/** The profile's choice (reports-admin §2 Profile "shift notifications", §3 Current user "shifts, notify"). */
export interface ShiftChoice {
  notify: boolean;
  shifts: readonly string[];
}

/**
 * Whether a user's shift choice lets an episode's e-mail through (decision 0936). No saved choice and a
 * choice of no shift mean every shift; "Send me notifications" off means none; otherwise the episode must
 * begin in one of the chosen shifts (`shiftAtStart` is the shift occurrence covering its start, null between
 * shifts).
 */
export function shiftChoiceAllows(choice: ShiftChoice | undefined, shiftAtStart: string | null): boolean {
  if (!choice) return true;
  if (!choice.notify) return false;
  if (choice.shifts.length === 0) return true;
  return shiftAtStart !== null && choice.shifts.includes(shiftAtStart);
}

import { companyScope } from '@takt/db';
import type { CompanyScope, Database } from '@takt/db';
import { isFailureLevel } from '@takt/domain';
import type { Kysely } from 'kysely';
import { sendMail } from '../mail/send';
import type { MailTransport } from '../mail/transport';
import { getCompany } from '../repositories/company';
import type { Company } from '../repositories/company';
import { getShiftNotifications } from '../repositories/account-links';
import { getEmailPreferences } from '../repositories/email-notifications';
import { liveByMachine } from '../repositories/live';
import { getUser } from '../repositories/users';
import { dashboardFigures } from '../services/dashboard-figures';
import { DEFAULT_EMAIL_PREFERENCES } from '../services/email-notifications';
import { currentShiftAt } from '../services/shifts';
import { machineLink } from '../services/workcenter';
import {
  activeBetween,
  claimEpisode,
  closeEpisodes,
  companiesWithNotifications,
  listEpisodes,
  listNotifications,
  openEpisode,
  touchEpisode,
} from './repository';
import type { StoredNotification } from './repository';
import { downtimeObservation, dueAt, episodeStep, shiftChoiceAllows, utilizationObservation } from './rules';
import type { Observation } from './rules';
import { everyInterval } from '../workers/interval';

// The notification checker (reports-admin §1 "Users can also receive e-mail notifications about downtime,
// utilization", §3 Machine notification; decisions 0901, 0902): every round, for every company with machine
// notifications, it looks at each machine's condition, keeps the episode rows, and when a condition has held
// past the notification's delay it claims the episode and sends one e-mail through the mail transport.
// It runs in each API process (main.ts); the claim makes several processes send each e-mail once.

export interface NotificationWorkerDeps {
  db: Kysely<Database>;
  now: () => number;
  mail: MailTransport;
  log?: (message: string) => void;
}

/** A utilization episode not seen for this long may have lifted unseen (the checker was not running). */
export const UTILIZATION_SEEN_STALE_MS = 5 * 60_000;

interface MachineFacts {
  name: string;
  decommissioned: boolean;
  downtimeFailureDelay: number;
}

async function machineFacts(scope: CompanyScope, ids: readonly string[]): Promise<Map<string, MachineFacts>> {
  if (ids.length === 0) return new Map();
  const rows = await scope
    .selectFrom('machines')
    .select(['id', 'name', 'decommissioned_at', 'downtime_failure_delay'])
    .where('id', 'in', ids)
    .execute();
  return new Map(
    rows.map((r) => [
      r.id,
      {
        name: r.name,
        decommissioned: r.decommissioned_at !== null,
        downtimeFailureDelay: r.downtime_failure_delay,
      },
    ]),
  );
}

const levelWord = (level: number) => (isFailureLevel(level) ? 'Failure' : 'Warning');

function formatAt(at: number, company: Company): string {
  try {
    return new Date(at).toLocaleString('en-US', {
      timeZone: company.timezone,
      dateStyle: 'medium',
      timeStyle: 'short',
    });
  } catch {
    return new Date(at).toISOString();
  }
}

/** The e-mail of one episode. */
export function notificationMail(input: {
  notification: StoredNotification;
  machine: string;
  company: Company;
  since: number;
  now: number;
  utilization: number | null;
}): { subject: string; text: string } {
  const { notification: n, machine, company, since, now } = input;
  const count = Math.max(0, Math.round((now - since) / 60_000));
  const minutes = `${count} ${count === 1 ? 'minute' : 'minutes'}`;
  if (n.type === 'downtime') {
    return {
      subject: `${levelWord(n.level)}: ${machine} has been down for ${minutes}`,
      text:
        `${machine} (${company.name}) has been down since ${formatAt(since, company)}, ${minutes} ago.\n\n` +
        'You get this e-mail because a downtime notification for this machine names you. ' +
        'You can turn downtime e-mails off in your e-mail preferences in Takt.\n',
    };
  }
  const figure = input.utilization === null ? '' : ` (${Math.round(input.utilization)}%)`;
  return {
    subject: `${levelWord(n.level)}: ${machine} utilization is low${figure}`,
    text:
      `The utilization of ${machine} (${company.name}) has been below its ${levelWord(n.level).toLowerCase()} ` +
      `level${figure} since ${formatAt(since, company)}, ${minutes} ago.\n\n` +
      'You get this e-mail because a utilization notification for this machine names you. ' +
      'You can turn utilization e-mails off in your e-mail preferences in Takt.\n',
  };
}

/** Check one company's notifications at `now`; returns how many e-mails were handed to the transport. */
export async function checkCompanyNotifications(
  deps: NotificationWorkerDeps,
  companyId: string,
  now: number,
): Promise<number> {
  const scope = companyScope(deps.db, companyId);
  const [notifications, episodeList, company] = await Promise.all([
    listNotifications(scope),
    listEpisodes(scope),
    getCompany(deps.db, companyId),
  ]);
  if (!company) return 0;
  const episodes = new Map(episodeList.map((e) => [e.notificationId, e]));
  const machineIds = [...new Set(notifications.map((n) => n.machineId))];
  const machines = await machineFacts(scope, machineIds);

  // Never a word about a decommissioned machine (its episodes are dropped too).
  const live = notifications.filter((n) => machines.get(n.machineId)?.decommissioned === false);
  await closeEpisodes(
    scope,
    notifications.filter((n) => !live.includes(n) && episodes.has(n.id)).map((n) => n.id),
  );

  const liveIds = [...new Set(live.map((n) => n.machineId))];
  const utilIds = [...new Set(live.filter((n) => n.type === 'utilization').map((n) => n.machineId))];
  const [rows, figures] = await Promise.all([
    liveByMachine(scope, liveIds),
    utilIds.length > 0 ? dashboardFigures(scope, utilIds, now) : Promise.resolve(new Map()),
  ]);

  let sent = 0;
  for (const n of live) {
    const machine = machines.get(n.machineId)!;
    const link = machineLink(rows.get(n.machineId), now);
    const utilization = figures.get(n.machineId)?.utilization;
    const seen: Observation =
      n.type === 'downtime'
        ? downtimeObservation(link)
        : utilizationObservation(n.level, utilization?.status, now);
    const existing = episodes.get(n.id);
    let interrupted = false;
    if (existing && seen.holds) {
      interrupted =
        n.type === 'downtime'
          ? seen.since > existing.seenAt &&
            (await activeBetween(scope, n.machineId, existing.seenAt, seen.since))
          : now - existing.seenAt > UTILIZATION_SEEN_STALE_MS;
    }
    const step = episodeStep(existing, seen, interrupted);
    let since: number;
    switch (step.kind) {
      case 'idle':
        continue;
      case 'close':
        await closeEpisodes(scope, [n.id]);
        continue;
      case 'reopen':
        await closeEpisodes(scope, [n.id]);
        await openEpisode(scope, { notificationId: n.id, machineId: n.machineId, since: step.since, now });
        since = step.since;
        break;
      case 'open':
        await openEpisode(scope, { notificationId: n.id, machineId: n.machineId, since: step.since, now });
        since = step.since;
        break;
      case 'continue':
        await touchEpisode(scope, n.id, now);
        if (existing!.notifiedAt !== null) continue;
        since = existing!.since;
        break;
    }
    if (now < dueAt(n, since, machine.downtimeFailureDelay)) continue;
    // Claimed before sending: once per episode, by one process, even if delivery then fails (the failed
    // attempt stays in the outbox, decision 0701).
    if (!(await claimEpisode(scope, n.id, now))) continue;
    const user = await getUser(scope, n.accountId);
    if (!user || user.locked) continue;
    const prefs = (await getEmailPreferences(scope, user.id)) ?? DEFAULT_EMAIL_PREFERENCES;
    if (n.type === 'downtime' ? !prefs.receiveDowntimeEmail : !prefs.receiveUtilizationEmail) continue;
    // reports-admin §2 Profile "shift notifications": only episodes that begin in a chosen shift.
    const choice = await getShiftNotifications(scope, user.id);
    const byShift = choice?.notify === true && choice.shifts.length > 0;
    const shiftAtStart = byShift ? ((await currentShiftAt(scope, since))?.id ?? null) : null;
    if (!shiftChoiceAllows(choice, shiftAtStart)) continue;
    const mail = notificationMail({
      notification: n,
      machine: machine.name,
      company,
      since,
      now,
      utilization: utilization?.utilization ?? null,
    });
    const result = await sendMail(scope, deps.mail, { userId: user.id, to: user.email, ...mail }, now);
    if (result.ok) sent += 1;
    else deps.log?.(`[notify] ${n.type} e-mail to ${user.email} failed: ${result.error}`);
  }
  return sent;
}

/** One round over every company with notifications; a company that fails is logged and the others go on. */
export async function runNotificationChecks(deps: NotificationWorkerDeps): Promise<number> {
  const now = deps.now();
  let sent = 0;
  for (const companyId of await companiesWithNotifications(deps.db)) {
    try {
      sent += await checkCompanyNotifications(deps, companyId, now);
    } catch (err) {
      deps.log?.(`[notify] company ${companyId}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return sent;
}

/** Check every `intervalMs` in this process (main.ts); stop() waits for the running round. */
export function startNotificationWorker(deps: NotificationWorkerDeps, intervalMs = 60_000) {
  return everyInterval(
    () => runNotificationChecks(deps),
    intervalMs,
    (err) => deps.log?.(`[notify] worker: ${err.message}`),
  );
}

// Tablet registration (live-operations §2): the pure parts of the /tablet/register page, kept apart from
// React so they are easy to test.
import type { MessageKey } from '@takt/ui';
import type { TabletDevice } from './device';
import { tabletDeviceOf } from './device';

/** The spec's timings: the code ring ticks every 100 ms; the page leaves 3 s after activation. */
export const TICK_MS = 100;
export const REDIRECT_DELAY_MS = 3000;
export const RECONNECT_DELAY_MS = 4000;

const SERIAL_KEY = 'takt.tablet.serial';

/**
 * This device's serial number: made once and kept, so the admin's list names the device the same way. It is a
 * label, not a claim: each connection of the registration page gets a code of its own (decision 0992).
 */
export function deviceSerial(storage: Pick<Storage, 'getItem' | 'setItem'> | null): string {
  const kept = storage?.getItem(SERIAL_KEY);
  if (kept) return kept;
  const serial = `web-${crypto.randomUUID()}`;
  storage?.setItem(SERIAL_KEY, serial);
  return serial;
}

export type Step = 'connecting' | 'code' | 'associated' | 'registered' | 'activated' | 'failed';

/** The registration steps in order, with their labels (live-operations §2). */
export const STEPS: ReadonlyArray<{ step: Exclude<Step, 'failed'>; label: MessageKey }> = [
  { step: 'connecting', label: 'tabletRegister.step.connecting' },
  { step: 'code', label: 'tabletRegister.step.code' },
  { step: 'associated', label: 'tabletRegister.step.associated' },
  { step: 'registered', label: 'tabletRegister.step.registered' },
  { step: 'activated', label: 'tabletRegister.step.activated' },
];

export const stepIndex = (s: Step) => STEPS.findIndex((x) => x.step === s);

export type TabletAuthMessage =
  | { event: 'send_code'; code: string; expiresAt: number; expiresIn: number; tablet_id: string }
  | { event: 'associated'; tablet_id: string }
  | { event: 'registered'; token: string; machineId: string | null; dashboardView: string }
  | { event: 'error'; code: string; message: string }
  | { event: 'refresh' }
  | { event: 'restart' };

export function parseTabletAuthMessage(data: unknown): TabletAuthMessage | null {
  if (typeof data !== 'string') return null;
  try {
    const m = JSON.parse(data) as { event?: unknown };
    return typeof m?.event === 'string' ? (m as TabletAuthMessage) : null;
  } catch {
    return null;
  }
}

/** Percentage of the code's life left, 0–100, for the countdown ring. */
export function remainingPercent(now: number, localExpiry: number, ttl: number): number {
  if (ttl <= 0) return 0;
  return Math.max(0, Math.min(100, ((localExpiry - now) / ttl) * 100));
}

/** "4:59" */
export function formatRemaining(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export const tabletAuthUrl = (loc: Pick<Location, 'protocol' | 'host'>) =>
  `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}/tablet-auth`;

/**
 * POST /tablet/activate with the device token; the server answers where to go and which tablet this is, and
 * sets the tablet cookie.
 */
export async function activate(
  token: string,
  fetchImpl: typeof fetch = fetch,
): Promise<{ redirectTo: string; device: TabletDevice | null }> {
  const res = await fetchImpl('/tablet/activate', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  if (!res.ok) throw new Error(`Activation failed (${res.status}).`);
  const body = (await res.json()) as { redirectTo?: string; tablet?: unknown };
  return { redirectTo: body.redirectTo ?? '/', device: tabletDeviceOf(body.tablet) };
}

/**
 * What a registered tablet does with a push from the admin's Tablets screen (reports-admin §2 "tablets
 * (register, refresh, restart ...)"): refresh reloads the page it shows; restart starts the app again from
 * its start page, as a fresh launch would.
 */
export function pushAction(data: unknown): 'reload' | 'restart' | null {
  const m = parseTabletAuthMessage(data);
  return m?.event === 'refresh' ? 'reload' : m?.event === 'restart' ? 'restart' : null;
}

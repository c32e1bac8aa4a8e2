// live-operations §7 "Time sync: GET /timesync"; ARCHITECTURE.md: occurredAt is the operator's time corrected
// by the /timesync offset, so facts recorded offline land at their true server time.

/**
 * Server clock minus client clock from one round trip: the server read its clock somewhere between send and
 * receive, so compare it with the midpoint (the usual NTP estimate).
 */
export function clockOffset(sentAt: number, serverNow: number, receivedAt: number): number {
  return Math.round(serverNow - (sentAt + receivedAt) / 2);
}

/** The corrected time of an action taken at client time `clientNow`. */
export const correctedNow = (clientNow: number, offsetMs: number): number => Math.round(clientNow + offsetMs);

/** Asks the server's clock; rejects on any failure (the caller keeps the last known offset). */
export async function measureOffset(
  fetchNow: () => Promise<{ now: number }>,
  clock: () => number = () => Date.now(),
): Promise<number> {
  const sentAt = clock();
  const { now } = await fetchNow();
  return clockOffset(sentAt, now, clock());
}

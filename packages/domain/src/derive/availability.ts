import type { Observation } from './observations';

// METRICS.md §1 "The newest evidence wins" (decision 1000). An availability UNAVAILABLE sent by the source
// holds only until the device sends newer data: many adapters send availability once, in their connect
// header (the Mazak01 log of tests/fixtures/mtconnect), and never again while the controller reports.

const blank = (v: string) => v.trim() === '' || v.trim().toUpperCase() === 'UNAVAILABLE';

/**
 * The observation is the device reporting: a value of the controller's own events the state and cycles are
 * read from (execution, controller mode, part count). Not samples (spindle speed, feedrate: often a separate
 * sensor), conditions (an adapter reports its own link as one) or program names (a header may carry blanks).
 * A value the source says is UNAVAILABLE, or blank, is no evidence.
 */
export function isReportingEvidence(o: Observation): boolean {
  switch (o.key) {
    case 'execution':
    case 'controller_mode':
      return o.value !== null && !blank(o.value);
    case 'part_count':
      return o.value !== null && Number.isFinite(o.value);
    default:
      return false;
  }
}

/**
 * The availability the state is judged on: an UNAVAILABLE whose time (`availabilityAt`) is older than the
 * device's latest reporting evidence (`reportingAt`) no longer counts (null: judged on the other signals).
 * Evidence in the same millisecond does not end it: storage keeps no order inside a millisecond, so only a
 * later time is "received after it", and live ingest and a re-derivation from storage agree.
 */
export function heldAvailability(
  availability: string | null,
  availabilityAt: number,
  reportingAt: number,
): string | null {
  if (availability !== null && availability.toUpperCase() === 'UNAVAILABLE' && reportingAt > availabilityAt)
    return null;
  return availability;
}

import type { DashboardMachine, UtilizationEntry, WorkcenterLive } from '@takt/domain';

// live-operations §6: FullProduct gates the job name, the parts bar and parts goal, the cycle and OEE
// section, the operator picker, slow and fast parts and the OEE and Parts Goal dashboards. A caller without it
// gets those fields blanked by the server (null, or an empty list), not merely hidden by the client, so a
// service-provider company never receives them (decision 0705). What stays: the machine's own facts (state,
// utilization, downtime, program, counted parts, setup timing) that the utilization tiers show.

/** The workcenter card (GET /api/workcenter/:machineId) without the FullProduct fields. */
export function workcenterWithoutFullProduct<T extends WorkcenterLive>(live: T): T {
  return {
    ...live,
    // Job name and the job's order quantity.
    jobName: null,
    quantity: null,
    // Parts bar and parts goal: the expectation, the percent of it and the goal status it drives.
    expectedPartsNow: null,
    partPercent: null,
    partsBar: null,
    cardStatus: null,
    // Cycle and OEE section.
    cycletime: null,
    currentCycle: null,
    lastCycle: null,
    lastFew: [],
    averageCycle: null,
    oee: null,
    availability: null,
    performance: null,
    quality: null,
    missingStandards: false,
    // The operator picker's state (operator runs are FullProduct routes).
    operatorRun: null,
  };
}

/** A dashboard tile (GET /api/dashboard) without the FullProduct fields: job name and parts goal. */
export function tileWithoutFullProduct(tile: DashboardMachine): DashboardMachine {
  return { ...tile, pausedJobName: null, progress: null, expectedParts: null };
}

/** GET /api/dashboard/utilization without the OEE figures (the OEE dashboard is FullProduct). */
export function utilizationWithoutFullProduct(entry: UtilizationEntry): UtilizationEntry {
  return {
    ...entry,
    oee: null,
    availability: null,
    performance: null,
    quality: null,
    missingStandards: false,
  };
}

import { z } from 'zod';
import type { GatewayStatusEntry, UnmappedEntry } from '../dashboard';

// GET /api/dashboard/status (live-operations §2 polling: unmapped status every 10 s, gateway status every 15 s).
// A module of its own, built of z.* calls only: the floor app reads it in a lazy chunk (the dashboards), and a
// module its first chunk does not use is dropped from that chunk, so zod stays out of it.

/** A machine that sent keys its adapter does not map (UnmappedEntry). */
export const unmappedEntrySchema = z.object({
  machineId: z.string(),
  keys: z.array(z.string()),
}) satisfies z.ZodType<UnmappedEntry>;

/** A gateway with its edge health only (GatewayStatusEntry, reports-admin §4). */
export const gatewayStatusEntrySchema = z.object({
  id: z.string(),
  name: z.string(),
  health: z.object({
    status: z.string(),
    label: z.string(),
    tone: z.enum(['success', 'warning', 'danger']),
  }),
}) satisfies z.ZodType<GatewayStatusEntry>;

/**
 * The answer of GET /api/dashboard/status. Each `?include=` part still answers both lists (the other one
 * empty); `cyclesDashboard` says whether the caller's company has the Cycles dashboard.
 */
export const dashboardStatusSchema = z.object({
  unmapped: z.array(unmappedEntrySchema),
  gateways: z.array(gatewayStatusEntrySchema),
  cyclesDashboard: z.boolean(),
});
export type DashboardStatusResponse = z.infer<typeof dashboardStatusSchema>;

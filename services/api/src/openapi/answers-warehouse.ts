import { z } from 'zod';
import type {
  faultsReport,
  timelineListReport,
  warehouseDowntime,
  warehouseQuality,
} from '../services/report-warehouse';
import type { Answer } from './answer';
import { answer, ms, range, recomputing } from './answer';
import { downtimeRow, faultRow } from './answers-reports';

// The answers of the remaining report calls (decision 1096), checked against their handlers (answer.ts).

export const faultsAnswer = answer<Answer<typeof faultsReport>>()(
  z.object({ range, recomputing, faults: z.array(faultRow) }),
);

export const timelineListAnswer = answer<Answer<typeof timelineListReport>>()(
  z.object({ range, recomputing, items: z.array(downtimeRow) }),
);

const reasonEntity = z.object({ id: z.string(), name: z.string(), color: z.string() });
/** The machines and reasons the items name, by id. */
const entities = z.object({
  machines: z.record(z.string(), z.object({ id: z.string(), name: z.string() })),
  reasons: z.record(z.string(), reasonEntity),
});
/** With groupBy machine, each item is one machine's reason. */
const item = { machineId: z.string().optional(), reasonId: z.string(), reason: reasonEntity };

export const warehouseDowntimeAnswer = answer<Answer<typeof warehouseDowntime>>()(
  z.object({
    range,
    recomputing,
    items: z.array(z.object({ ...item, downtimeMs: ms, recordCount: z.number() })),
    entities,
  }),
);

export const warehouseQualityAnswer = answer<Answer<typeof warehouseQuality>>()(
  z.object({ range, items: z.array(z.object({ ...item, rejectCount: z.number() })), entities }),
);

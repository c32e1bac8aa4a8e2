import { useEffect, useState } from 'react';
import { api } from '../api';
import type { StageChoice } from './schedule-stages';

// What the schedule's form offers to choose from, loaded once per page.

export interface ShiftChoice {
  id: string;
  name: string;
  terminated: boolean;
}

/** GET /api/shifts: the company's shifts, for "runs in these shifts" (reports-admin §3 Job schedule group). */
export function useShifts(): ShiftChoice[] {
  const [shifts, setShifts] = useState<ShiftChoice[]>([]);
  useEffect(() => {
    const controller = new AbortController();
    api
      .request<ShiftChoice[]>('/api/shifts', { signal: controller.signal })
      .then((list) => setShifts(list.map((s) => ({ id: s.id, name: s.name, terminated: s.terminated }))))
      .catch(() => {
        // The form says there are no shifts; saving is refused by the server's rule as well.
      });
    return () => controller.abort();
  }, []);
  return shifts;
}

/** GET /api/setup/stages: the company's active setup stages in stage order, for the second form (decision 0940). */
export function useSetupStages(): StageChoice[] {
  const [stages, setStages] = useState<StageChoice[]>([]);
  useEffect(() => {
    const controller = new AbortController();
    api
      .request<StageChoice[]>('/api/setup/stages', { signal: controller.signal })
      .then((list) =>
        setStages(
          list.map((s) => ({
            id: s.id,
            name: s.name,
            stageOrder: s.stageOrder,
            setupPercentage: s.setupPercentage,
          })),
        ),
      )
      .catch(() => {
        // The form says no stages are configured; saving is refused by the server's rule as well.
      });
    return () => controller.abort();
  }, []);
  return stages;
}

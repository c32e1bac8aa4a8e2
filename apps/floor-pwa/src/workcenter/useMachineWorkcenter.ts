import { useDashboard } from '@takt/ui';
import { useEffect, useMemo } from 'react';
import { api } from '../api';
import { storeDashboard } from '../offline/refdata';
import { useFloorSync } from '../offline/SyncProvider';
import { useWorkcenter } from './useWorkcenter';

/**
 * One machine's workcenter data for a floor screen (the workcenter view, the part count of decision 1099): the
 * 5 s dashboard poll, whose every answer goes to the store (the screen reads the store, so it works offline),
 * the machine watched by the sync loop, and the stored workcenter with the queued actions folded over it.
 */
export function useMachineWorkcenter(machineId: string) {
  const sync = useFloorSync();
  const poll = useDashboard(api, null);
  const fetched = useMemo(() => {
    const tile = poll.data?.machines.find((m) => m.id === machineId);
    return tile && poll.data ? { tile, at: poll.data.now } : null;
  }, [poll.data, machineId]);
  const data = useWorkcenter(machineId, fetched);
  useEffect(() => {
    if (poll.data) void storeDashboard(sync.db, poll.data.machines, poll.data.groups, poll.data.now);
  }, [poll.data, sync]);
  useEffect(() => {
    sync.watch(machineId);
  }, [sync, machineId]);
  return { poll, data };
}

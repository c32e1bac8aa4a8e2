export { loadCalendar, recomputeRollups, markRollupsDirty, takeDirty, clearDirty } from './recompute';
export { loadRollups } from './read';

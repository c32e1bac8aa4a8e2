export {
  loadCalendar,
  loadRollupSource,
  recomputeRollups,
  markRollupsDirty,
  takeDirty,
  clearDirty,
} from './recompute';
export { loadRollups } from './read';

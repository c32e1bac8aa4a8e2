import type { WorkcenterData } from '../useWorkcenter';

export interface OverlayProps {
  machineId: string;
  machineName: string;
  data: WorkcenterData;
  onClose: () => void;
  /** A manual work center (from the tile or the card's live data). */
  manual?: boolean;
}

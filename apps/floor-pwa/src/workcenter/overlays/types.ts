import type { WorkcenterData } from '../useWorkcenter';

export interface OverlayProps {
  machineId: string;
  machineName: string;
  data: WorkcenterData;
  onClose: () => void;
}

import { WorkcenterScreen } from '../workcenter/WorkcenterScreen';

export interface WorkcenterPageProps {
  machineId: string;
  /** Second path segment of /:machineId/:dashboardType; a live dashboard type picks the status rule. */
  dashboardType: string | null;
}

/** The workcenter route; the screen and its offline-first data live in src/workcenter and src/offline. */
export function WorkcenterPage({ machineId, dashboardType }: WorkcenterPageProps) {
  return <WorkcenterScreen machineId={machineId} dashboardType={dashboardType} />;
}

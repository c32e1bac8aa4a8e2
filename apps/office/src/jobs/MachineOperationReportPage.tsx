import { useSearchParams } from 'react-router';
import { MachineJobReportPage } from './JobReportPage';
import { MachineJobsReportPage } from './JobsReportPage';

/**
 * reports-admin §2 /reports/machineoperationreport?machine_id&job_id[&start&end]: with a job, the machine-job
 * report; with only the machine, the Machine jobs report listing the jobs run there (decision 0821).
 */
export function MachineOperationReportPage() {
  const [query] = useSearchParams();
  return query.has('job_id') ? <MachineJobReportPage /> : <MachineJobsReportPage />;
}

import type { z } from 'zod';
import { meAnswerSchema, dashboardResponseSchema, dashboardStatusSchema } from '@takt/domain';
import type { MeAnswer } from '@takt/domain';
import type { dashboard } from '../services/dashboard';
import type { Answer } from './answer';
import { answer } from './answer';
import type { DocumentedCall } from './call';
import * as figures from './answers-figures';
import * as live from './answers-live';
import * as reports from './answers-reports';
import * as warehouse from './answers-warehouse';

// The success answer of every JSON call an API key may make (decision 1079), by method and path: the
// document describes each (document.ts), routes/openapi-answers.test.ts reads real answers with them.
// Answers of the calls for logged-in users only stay with their call (`response` in the area tables) where
// a schema exists.

export const ANSWERS: Readonly<Record<string, z.ZodType>> = {
  'get /api/me': answer<MeAnswer>()(meAnswerSchema),
  // Dashboards and reports (reports:read)
  'get /api/dashboard': answer<Answer<typeof dashboard>>()(dashboardResponseSchema),
  'get /api/dashboard/utilization': reports.dashboardUtilizationAnswer,
  'get /api/dashboard/parts': reports.dashboardPartsAnswer,
  'get /api/dashboard/status': dashboardStatusSchema,
  'get /api/dashboard/cycles': reports.dashboardCyclesAnswer,
  'get /api/reports/downtime': reports.downtimeReportAnswer,
  'get /api/reports/partGoals': reports.partGoalsAnswer,
  'get /api/reports/utilization': reports.utilizationAnswer,
  'get /api/reports/cycles': reports.cyclesAnswer,
  'get /api/reports/operation': reports.timelineAnswer,
  'get /api/reports/subprograms': reports.subprogramsAnswer,
  'get /api/reports/overrides': reports.overridesAnswer,
  'get /api/reports/oee': reports.oeeReportAnswer,
  'post /api/reports/warehouse/production': figures.productionAnswer,
  'get /api/reports/faults': warehouse.faultsAnswer,
  'get /api/reports/timelinelist': warehouse.timelineListAnswer,
  'post /api/reports/warehouse/downtime': warehouse.warehouseDowntimeAnswer,
  'post /api/reports/warehouse/quality': warehouse.warehouseQualityAnswer,
  'get /api/reports/warehouse/jobs': figures.warehouseJobsAnswer,
  'get /api/reports/warehouse/jobs/aggregatedbymachine': figures.jobByMachineAnswer,
  'get /api/reports/warehouse/jobs/withoutruns': figures.jobsWithoutRunsAnswer,
  'post /api/oee/bymachine': figures.oeeByMachineAnswer,
  'post /api/oee/byabstractshift': figures.oeeByShiftAnswer,
  'get /api/partadjustment': figures.partAdjustmentsAnswer,
  'get /api/partadjustment/allRejectsByCategory': figures.rejectsByCategoryAnswer,
  'get /api/partadjustment/rejects': figures.rejectListAnswer,
  // Live operations (operations:write)
  'get /api/dispatch/current': live.currentJobRunAnswer,
  'post /api/dispatch/start': live.jobRunAnswer,
  'post /api/dispatch/stop': live.jobRunAnswer,
  'get /api/setup/parts': live.setupPartsAnswer,
  'post /api/setup/transition': live.stageTransitionAnswer,
  'post /api/setup/end': live.endSetupAnswer,
  'get /api/operators': live.operatorsAnswer,
  'get /api/operatorruns': live.operatorRunsAnswer,
  'post /api/operatorruns/start': live.operatorRunAnswer,
  'post /api/operatorruns/stop': live.operatorRunAnswer,
  'get /api/downtime': live.downtimeListAnswer,
  'post /api/downtime/split': live.splitDowntimeAnswer,
  'get /api/annotations': live.annotationsAnswer,
  'post /api/annotations': live.annotationAnswer,
  'post /api/annotations/bulk': live.bulkAnnotationsAnswer,
  'post /api/annotations/setRange': live.changedAnnotationsAnswer,
  'put /api/annotations/{id}': live.changedAnnotationAnswer,
  'post /api/annotations/{id}/split': live.changedAnnotationsAnswer,
  'post /api/annotations/{id}/merge': live.changedAnnotationsAnswer,
  'delete /api/annotations/{id}': live.changedAnnotationsAnswer,
  'post /api/partadjustment': figures.partAdjustmentAnswer,
  'post /api/partadjustment/manual': figures.partAdjustmentAnswer,
  'post /api/partadjustment/manual/undo': live.deletedAnswer,
  'put /api/partadjustment/{id}': figures.partAdjustmentAnswer,
  'delete /api/partadjustment/{id}': live.deletedAnswer,
  // Planning (jobs:write, and the reference lists reports take)
  'get /api/jobs': live.jobsPageAnswer,
  'get /api/jobs/{id}': live.jobViewAnswer,
  'post /api/jobs': live.jobAnswer,
  'put /api/jobs/{id}': live.jobAnswer,
  'get /api/jobmachines': live.jobMachinesAnswer,
  'post /api/jobmachines': live.jobMachineAnswer,
  'get /api/productionruns': live.productionRunsAnswer,
  'get /api/productionruns/{id}': live.productionRunAnswer,
  'post /api/productionruns': live.productionRunAnswer,
  'put /api/productionruns/{id}': live.productionRunAnswer,
  'get /api/shifts': live.shiftsAnswer,
  'get /api/shifts/current': live.currentShiftAnswer,
  'get /api/shifts/color': live.shiftColorsAnswer,
  'get /api/shifts/defaults': live.shiftDefaultsAnswer,
  'get /api/machinegroups': live.machineGroupsAnswer,
  'get /api/machinegroups/{id}': live.machineGroupAnswer,
  'get /api/annotationtypes': live.annotationTypesAnswer,
  'get /api/partadjustmenttypes': live.partAdjustmentTypesAnswer,
};

/** Calls that answer 201 when they create and 200, the same answer, when they change (routes' own rule). */
export const CREATE_OR_CHANGE: ReadonlySet<string> = new Set([
  'post /api/annotations',
  'post /api/jobmachines',
]);

/** The call with its answer's schema: the one listed here, else its own. */
export const withAnswer = (call: DocumentedCall): DocumentedCall => {
  const listed = ANSWERS[`${call.method} ${call.path}`];
  return listed ? { ...call, response: listed } : call;
};

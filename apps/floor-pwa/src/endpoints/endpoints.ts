// Every API path the floor app's offline core and workcenter screens call, in one place, so a route renamed in
// services/api/src/routes/*.ts has one line to change here.

export const ENDPOINTS = {
  /** GET `{ now }`: the server clock (live-operations §7 "Time sync"). */
  timesync: '/timesync',
  /** POST `{ commands }` → `{ results }` (ARCHITECTURE.md "Offline sync contract"). */
  sync: '/api/sync',
  me: '/api/me',
  /** GET (?group) → DashboardResponse. */
  dashboard: '/api/dashboard',
  /** GET ?machineId&filter&limit&offset → `{ rows, count }`. */
  jobs: '/api/jobs',
  /** GET ?machineId → JobMachine[]. */
  jobMachines: '/api/jobmachines',
  /** GET ?machineId → AnnotationType[] (downtime reasons). */
  annotationTypes: '/api/annotationtypes',
  /** GET ?scrapOnly=true → PartAdjustmentType[] (reject reasons). */
  partAdjustmentTypes: '/api/partadjustmenttypes',
  /** GET → Operator[]. */
  operators: '/api/operators',
  /** GET ?machineId&startAt&endAt → OperatorRun[] (the open one has endAt null). */
  operatorRuns: '/api/operatorruns',
  /** GET → SetupStage[] in order. */
  setupStages: '/api/setup/stages',
  /** GET ?jsgId&machineId → `{ netCount }`. */
  setupParts: '/api/setup/parts',
  /** GET → `{ id, name, start, end, shopDate } | null`. */
  currentShift: '/api/shifts/current',
  /** GET → shifts with their current and latest versions (the shift calendar, for the list offline). */
  shifts: '/api/shifts',
  /** GET ?machineId[&start] → `{ items, start, end }` (24 h back by default). */
  downtime: '/api/downtime',
  /** GET → WorkcenterLive + `{ machineId, jobRunId, inSetup }` (live-operations §3), the card's live data. */
  workcenter: (machineId: string) => `/api/workcenter/${encodeURIComponent(machineId)}`,
  /** WebSocket (same origin, cookie auth). */
  live: '/live',
  /**
   * GET ?machineId → the machine's open job run (JobRunView of services/api dispatch.ts) or null: the card's run,
   * with this tablet's own queued start/stop/setup commands folded over it.
   */
  currentRun: '/api/dispatch/current',
  /**
   * GET → the company flags (exactly companyFlagsSchema in @takt/domain: enable_setup_stages,
   * hide_remove_rejected_parts_checkbox, areActivitiesEnabled, cycleinputoption, enable_tablet_machine_switching,
   * downtime_list_filter_duration, currentTimeContext.offset_millis, product_tier, and the settings of decision
   * 1087: operator_tracking, underlay_delay, underlay_auto_expand, long_downtime_threshold).
   */
  companyFlags: '/api/company/flags',
} as const;

/** The sync command types and the HTTP call each payload is the body of (the sync endpoint applies the same). */
export const COMMAND_HTTP_EQUIVALENT = {
  start_job: 'POST /api/dispatch/start',
  stop_job: 'POST /api/dispatch/stop',
  setup_stage: 'POST /api/setup/transition',
  start_production: 'POST /api/setup/end',
  categorize_downtime: 'POST /api/annotations',
  split_downtime: 'POST /api/downtime/split',
  reject_part: 'POST /api/partadjustment',
  part_correction: 'POST /api/partadjustment',
  manual_add_part: 'POST /api/partadjustment/manual',
  manual_undo: 'POST /api/partadjustment/manual/undo',
  operator_login: 'POST /api/operatorruns/start',
  operator_logout: 'POST /api/operatorruns/stop',
} as const;

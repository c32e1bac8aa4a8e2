import type { Generated } from 'kysely';

// The database as Kysely sees it. Every table carries company_id (tenancy, ARCHITECTURE.md).
// Times are epoch milliseconds in BIGINT columns; booleans are 0/1 integers so both dialects agree.

import type {
  CompaniesTable,
  UsersTable,
  SessionsTable,
  TabletsTable,
  BenchmarkMailsTable,
  EmailPreferencesTable,
  UserPreferencesTable,
  MailOutboxTable,
  EventExportsTable,
  ApiKeysTable,
  LoginFailuresTable,
  RateLimitsTable,
  MachineNotificationsTable,
  MachineNotificationEpisodesTable,
  InvitesTable,
  PasswordResetsTable,
  ShiftNotificationsTable,
  LoginCodesTable,
  SystemVersionsTable,
} from './schema-accounts';
import type {
  MachineGroupsTable,
  MachineGroupMembersTable,
  MachineGroupAnnotationTypesTable,
  MachinesTable,
  ShiftsTable,
  ShiftVersionsTable,
  JobsTable,
  JobMachinesTable,
  SetupStagesTable,
  JobRunsTable,
  JobRunShiftsTable,
  LaborActivitiesTable,
  AnnotationTypesTable,
  AnnotationsTable,
  PartAdjustmentTypesTable,
  PartAdjustmentsTable,
  OperatorsTable,
  OperatorRunsTable,
  SyncCommandsTable,
} from './schema-plant';
import type {
  AdaptersTable,
  AdapterTypesTable,
  AdapterFieldsTable,
  MachineSourcesTable,
  ObservationsTable,
  ObservationPacksTable,
  ObservationRowsTable,
  ObservationMachinesTable,
  ObservationKeysTable,
  RawFloorTable,
  ObservationSeedsTable,
  ObservationStepsTable,
  StateIntervalsTable,
  MachineLiveTable,
  CyclesTable,
  ProgramIntervalsTable,
  ProgramRowsTable,
  ProgramOpenTable,
  ProgramPacksTable,
  FaultsTable,
  FlagSpansTable,
  FlagRowsTable,
  FlagOpenTable,
  StateRowsTable,
  StateOpenTable,
  IngestNodesTable,
  SourceLeasesTable,
  GatewaysTable,
  IngestInboxTable,
  MachineSimulationsTable,
} from './schema-ingest';
import type {
  RollupsTable,
  RollupDaysTable,
  RollupWeeksTable,
  RollupWeekPacksTable,
  RollupDirtyTable,
  SetupDirtyTable,
} from './schema-rollups';

export * from './schema-accounts';
export * from './schema-plant';
export * from './schema-ingest';
export * from './schema-rollups';

export interface Database {
  companies: CompaniesTable;
  users: UsersTable;
  sessions: SessionsTable;
  machine_groups: MachineGroupsTable;
  machine_group_members: MachineGroupMembersTable;
  machine_group_annotation_types: MachineGroupAnnotationTypesTable;
  machines: MachinesTable;
  adapters: AdaptersTable;
  adapter_fields: AdapterFieldsTable;
  adapter_types: AdapterTypesTable;
  machine_sources: MachineSourcesTable;
  observations: ObservationsTable;
  observation_rows: ObservationRowsTable;
  observation_packs: ObservationPacksTable;
  observation_machines: ObservationMachinesTable;
  observation_keys: ObservationKeysTable;
  raw_floor: RawFloorTable;
  observation_seeds: ObservationSeedsTable;
  observation_steps: ObservationStepsTable;
  state_intervals: StateIntervalsTable;
  machine_live: MachineLiveTable;
  shifts: ShiftsTable;
  shift_versions: ShiftVersionsTable;
  jobs: JobsTable;
  job_machines: JobMachinesTable;
  setup_stages: SetupStagesTable;
  job_runs: JobRunsTable;
  job_run_shifts: JobRunShiftsTable;
  labor_activities: LaborActivitiesTable;
  annotation_types: AnnotationTypesTable;
  annotations: AnnotationsTable;
  part_adjustment_types: PartAdjustmentTypesTable;
  part_adjustments: PartAdjustmentsTable;
  operators: OperatorsTable;
  operator_runs: OperatorRunsTable;
  sync_commands: SyncCommandsTable;
  cycles: CyclesTable;
  program_intervals: ProgramIntervalsTable;
  program_rows: ProgramRowsTable;
  program_open: ProgramOpenTable;
  program_packs: ProgramPacksTable;
  faults: FaultsTable;
  flag_spans: FlagSpansTable;
  flag_rows: FlagRowsTable;
  flag_open: FlagOpenTable;
  state_rows: StateRowsTable;
  state_open: StateOpenTable;
  rollups: RollupsTable;
  rollup_days: RollupDaysTable;
  rollup_weeks: RollupWeeksTable;
  rollup_week_packs: RollupWeekPacksTable;
  gateways: GatewaysTable;
  ingest_inbox: IngestInboxTable;
  machine_simulations: MachineSimulationsTable;
  rollup_dirty: RollupDirtyTable;
  setup_dirty: SetupDirtyTable;
  ingest_nodes: IngestNodesTable;
  source_leases: SourceLeasesTable;
  tablets: TabletsTable;
  email_preferences: EmailPreferencesTable;
  user_preferences: UserPreferencesTable;
  mail_outbox: MailOutboxTable;
  benchmark_mails: BenchmarkMailsTable;
  event_exports: EventExportsTable;
  api_keys: ApiKeysTable;
  login_failures: LoginFailuresTable;
  rate_limits: RateLimitsTable;
  machine_notifications: MachineNotificationsTable;
  machine_notification_episodes: MachineNotificationEpisodesTable;
  invites: InvitesTable;
  password_resets: PasswordResetsTable;
  shift_notifications: ShiftNotificationsTable;
  login_codes: LoginCodesTable;
  system_versions: SystemVersionsTable;
}

/**
 * Tables whose rows belong to one company: all but companies, global reference data (adapter types) and
 * login failures (counted before a company is known).
 */
export type CompanyTable = Exclude<
  keyof Database,
  | 'companies'
  | 'adapter_types'
  | 'login_failures'
  | 'rate_limits'
  | 'system_versions'
  // raw observations as stored: their machine (dictionary) names the company (decision 1130)
  | 'observation_rows'
  | 'observation_packs'
  | 'observation_keys'
  | 'observation_seeds'
  | 'observation_steps'
  | 'raw_floor'
  // program intervals and flag spans as stored: their machine (dictionary) names the company (decisions 1161, 1171)
  | 'program_rows'
  | 'program_open'
  | 'program_packs'
  | 'flag_rows'
  | 'flag_open'
>;

// Generated is re-exported for migrations that add auto columns later.
export type { Generated };

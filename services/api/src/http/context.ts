import type { Kysely } from 'kysely';
import type { Database, CompanyScope, DialectName } from '@takt/db';
import type { User } from '../repositories/users';
import type { Company } from '../repositories/company';
import type { LiveBus } from '../live/bus';
import type { Tablet } from '../repositories/tablets';
import type { MailTransport } from '../mail/transport';
import type { IngestRules } from '../ingest-rules';
import type { ApiKeyScope, SourcePolicy } from '@takt/domain';
import type { Metrics } from './metrics';
import type { LogSink } from './log';
import type { HeldSums } from '../services/held-sums';
import type { DashboardAnswers } from '../services/dashboard-shared';

/** What every request handler may use; built once per process and passed in (no singletons). */
export interface Deps {
  db: Kysely<Database>;
  /**
   * The tile goals' held-row sums kept between answers (decision 1191); buildApp makes one per app when absent.
   */
  heldSums?: HeldSums;
  /**
   * GET /api/dashboard's answers shared between callers (decision 1200); buildApp makes one per app when absent;
   * null: every call computed (a bench measuring both).
   */
  dashboardAnswers?: DashboardAnswers | null;
  dialect: DialectName;
  /** The clock, injectable so tests control time. */
  now: () => number;
  demoMode: boolean;
  secureCookies: boolean;
  /** Folder holding apps/floor-pwa/dist and apps/office/dist; null disables static serving. */
  staticRoot: string | null;
  /** Change events to every API process's live channel subscribers. */
  bus: LiveBus;
  /** The one company with the Cycles dashboard (TAKT_CYCLES_DASHBOARD_COMPANY; decision 0600). */
  cyclesDashboardCompany?: string | null;
  /** Gateway push and adapter import rules: @takt/ingest's apiRules, through main.ts (ingest-rules.ts). */
  ingest: IngestRules;
  /** How mail leaves (TAKT_SMTP_URL; decision 0701); absent: kept in the mail_outbox table only. */
  mail?: MailTransport;
  /** Prometheus registry and the hooks that feed it (http/metrics.ts); absent: the app makes its own. */
  metrics?: Metrics;
  /** Where structured logs go (http/log.ts); absent: request lines are dropped, errors go to stderr. */
  log?: LogSink;
  /** Bearer token for GET /metrics (TAKT_METRICS_TOKEN; decision 0961); absent: loopback clients only. */
  metricsToken?: string;
  /** Origins that may frame the apps (TAKT_FRAME_ANCESTORS; decision 0962); absent or empty: none. */
  frameAncestors?: readonly string[];
  /**
   * Where machine sources may point (TAKT_SOURCE_NETWORKS, the demo plant's adapters, this server's ports;
   * decision 0985); absent: the default policy, which closes loopback, link-local and the rest.
   */
  sourcePolicy?: SourcePolicy;
  /**
   * Where people reach Takt (TAKT_PUBLIC_URL, no trailing slash; decision 0989): every link in an e-mail starts
   * with it, never with the request's Host. Absent: `http://localhost:8080`.
   */
  publicUrl?: string;
  /** Proxies trusted to name the client in X-Forwarded-For (TAKT_TRUSTED_PROXIES; decision 0988); absent: none. */
  trustedProxies?: readonly string[];
}

export interface UserCaller {
  kind: 'user';
  user: User;
  company: Company;
  sessionToken: string;
  /**
   * The user's anonymize preference, read with the session (decision 1210); undefined where the caller was
   * made without it (it is then read when needed).
   */
  anonymize?: boolean;
}

/**
 * A registered tablet (device token). `user` is a synthetic operator of the tablet's company (id
 * `tablet:<tablet id>`), so routes and services that read `caller.user` work unchanged (decision 0500).
 * `boundMachineId` set: the tablet may act on that machine only (auth/tablet-binding.ts).
 */
export interface TabletCaller {
  kind: 'tablet';
  user: User;
  company: Company;
  tablet: Tablet;
  boundMachineId: string | null;
}

/**
 * An API key (`Authorization: Bearer tak_…`, decision 0840). `user` is a synthetic manager of the key's
 * company (id `apikey:<key id>`), never an admin; what the key may call is fixed by its scopes
 * (auth/api-key-scopes.ts) before any route runs.
 */
export interface ApiKeyCaller {
  kind: 'apiKey';
  user: User;
  company: Company;
  apiKey: { id: string; name: string; scopes: ApiKeyScope[] };
}

export type Caller = UserCaller | TabletCaller | ApiKeyCaller;

export interface AppEnv {
  Variables: {
    deps: Deps;
    requestId: string;
    caller: Caller;
    scope: CompanyScope;
    metrics: Metrics;
  };
}

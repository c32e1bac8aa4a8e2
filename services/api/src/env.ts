import { DEFAULT_DATABASE_URL } from '@takt/db';
import { z } from 'zod';
import { isAddressOrRange } from './http/client-address';

// ARCHITECTURE.md "Conventions": configuration by environment, validated once at start. Nothing else reads
// process.env; the parsed Env is passed to whoever needs it.
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().min(1).default(DEFAULT_DATABASE_URL),
  TAKT_DEMO: z
    .enum(['0', '1', 'true', 'false', ''])
    .default('0')
    .transform((v) => v === '1' || v === 'true'),
  /** First TCP port of the simulated plant's SHDR adapters (one port per machine). */
  TAKT_DEMO_PORT_BASE: z.coerce.number().int().min(1024).max(65000).default(7878),
  /** Time scale of the simulated plant: 1 is real time, 10 makes everything ten times faster. */
  TAKT_DEMO_SPEED: z.coerce.number().positive().max(1000).default(1),
  TAKT_DEMO_SEED: z.coerce.number().int().default(20261122),
  /** Machines of the simulated plant when it is first made (12 named ones, then "Demo Machine NN"); for
   * load tests such as the 50-machine dashboard end-to-end test. */
  TAKT_DEMO_MACHINES: z.coerce.number().int().min(12).max(500).default(12),
  /** Days of history the demo company gets on its first start (decision 1035); 0 for none. */
  TAKT_DEMO_DAYS: z.coerce.number().int().min(0).max(90).default(30),
  TAKT_ADMIN_EMAIL: z
    .string()
    .email()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  TAKT_ADMIN_PASSWORD: z.string().optional(),
  /**
   * A root (staff) user made at start (decision 1040): an existing user with this e-mail is promoted; with
   * TAKT_ROOT_PASSWORD a missing one is created in the first company. `npm run root` does the same later.
   */
  TAKT_ROOT_EMAIL: z
    .string()
    .email()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  TAKT_ROOT_PASSWORD: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  /**
   * Days raw observations are kept (decision 1132); older ones are removed in slices, derived intervals, cycles and
   * rollups stay, and late data older than that is refused. 0 keeps them all.
   */
  TAKT_RAW_RETENTION_DAYS: z.coerce.number().int().min(0).max(3650).default(35),
  /**
   * Seconds an idle keep-alive connection stays open (decision 1176): longer than the idle timeout of the proxy or
   * load balancer in front (nginx and AWS ALB 60 s: the default 65; Google Cloud's HTTP(S) load balancer 600 s: set
   * 620), so the client ends idle connections, never the server.
   */
  TAKT_KEEP_ALIVE_SECONDS: z.coerce.number().int().min(5).max(3600).default(65),
  /** Run the ingest workers in this process (the embedded default). */
  TAKT_INGEST: z
    .enum(['0', '1', 'true', 'false'])
    .default('1')
    .transform((v) => v === '1' || v === 'true'),
  /**
   * Run the ingest in a worker thread of this process (decision 1226: its own event loop, heap and database handle, so
   * API calls do not queue behind its batches); 0 runs it in the API's event loop, as before.
   */
  TAKT_INGEST_THREAD: z
    .enum(['0', '1', 'true', 'false'])
    .default('1')
    .transform((v) => v === '1' || v === 'true'),
  /**
   * Worker threads of this process computing the reports (decision 1253: each with its own event loop, heap and
   * database handle; the API's loop keeps the HTTP, sessions and shared answers). Unset or 0: computed in the API's
   * event loop; on the 2-core reference machine threads kept the loop free but made the reports' p99 worse.
   */
  TAKT_REPORT_THREADS: z.coerce.number().int().min(0).max(16).optional(),
  /**
   * PostgreSQL connections of the API's pool, which the HTTP calls and the background workers share (decision 1192).
   * Unset: 10. SQLite: one connection whatever this says (and one more for the ingest thread).
   */
  TAKT_DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).optional(),
  /**
   * PostgreSQL connections of the ingest's own pool when TAKT_INGEST is on (decision 1192): a report's statements never
   * wait behind the ingest's writes. Unset: 4. A node opens at most the two pools' sizes plus one (the live bus).
   */
  TAKT_INGEST_DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).optional(),
  /** Where the built apps are; defaults to the workspace dist folders. */
  TAKT_STATIC_ROOT: z.string().optional(),
  /** Secure cookies (set when served over HTTPS). */
  TAKT_SECURE_COOKIES: z
    .enum(['0', '1', 'true', 'false'])
    .default('0')
    .transform((v) => v === '1' || v === 'true'),
  /** MQTT broker for machines with MQTT sources, e.g. mqtt://127.0.0.1:1883 (docs/decisions/0200-mqtt-topics.md). */
  TAKT_MQTT_URL: z.string().optional(),
  TAKT_MQTT_PREFIX: z.string().optional(),
  /**
   * The ingest worker's MQTT client id: a fixed id keeps a persistent session, so QoS 1 messages not yet
   * stored when the worker died come again (decision 0200). Give each ingest worker its own.
   */
  TAKT_MQTT_CLIENT_ID: z.string().min(1).max(128).default('takt-ingest'),
  /**
   * This ingest node's id among several on PostgreSQL (decision 0970): its leases on the machine sources are held
   * under it. Unset: host name and process id. A node restarted with the same id takes its own leases back at once.
   */
  TAKT_NODE_ID: z.string().min(1).max(128).optional(),
  /** The one company whose users get the Cycles live dashboard (live-operations §6; decision 0600). Unset: none. */
  TAKT_CYCLES_DASHBOARD_COMPANY: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined)),
  /** SMTP server for outgoing mail, e.g. smtp://user:pass@mail.example:587; unset keeps mail in the mail_outbox
   * table only (decision 0701). */
  TAKT_SMTP_URL: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || /^smtps?:\/\//.test(v), 'must start with smtp:// or smtps://'),
  /** The From address of outgoing mail. */
  TAKT_MAIL_FROM: z.string().trim().min(1).default('Takt <takt@localhost>'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** Bearer token for GET /metrics; unset: only clients on this host (loopback) may read it (decision 0961). */
  TAKT_METRICS_TOKEN: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || v.length >= 16, 'must be at least 16 characters'),
  /**
   * Origins allowed to show the apps in a frame (a signage system showing the live dashboards), separated by
   * spaces, e.g. `https://signage.example`; unset: no site may frame them (decision 0962).
   */
  TAKT_FRAME_ANCESTORS: z
    .string()
    .optional()
    .transform((v) => (v ?? '').split(/\s+/).filter((o) => o !== ''))
    .refine(
      (list) => list.every((o) => /^(https?:\/\/[\w.*-]+(:\d{1,5})?|'self')$/.test(o)),
      "must be origins such as https://signage.example (or 'self'), separated by spaces",
    ),
  /**
   * The address people reach Takt at, e.g. `https://takt.example.com`: links in e-mail (password links, sign-in
   * codes, invites, exports) are built from it, never from the request (decision 0989). Unset:
   * `http://localhost:<PORT>`.
   */
  TAKT_PUBLIC_URL: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v.replace(/\/+$/, '') : undefined))
    .refine(
      (v) => v === undefined || /^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/.test(v),
      'must be an http:// or https:// address such as https://takt.example.com',
    ),
  /**
   * Reverse proxies whose X-Forwarded-For / Forwarded headers name the client (decision 0988): addresses or
   * CIDR ranges separated by spaces or commas, e.g. `127.0.0.1 10.0.0.0/8`. Unset: the socket's address is the
   * client, and those headers are ignored.
   */
  TAKT_TRUSTED_PROXIES: z
    .string()
    .optional()
    .transform((v) => (v ?? '').split(/[\s,]+/).filter((o) => o !== ''))
    .refine((list) => list.every(isAddressOrRange), 'must be IP addresses or CIDR ranges such as 10.0.0.0/8'),
  /**
   * Networks machine sources may reach beyond the default (decision 0985: loopback, link-local, unspecified,
   * multicast and broadcast addresses are closed; private LAN ranges are open): CIDR ranges or addresses
   * separated by spaces or commas, e.g. `127.0.0.1/32` for a plant whose adapters run on this server.
   */
  TAKT_SOURCE_NETWORKS: z
    .string()
    .optional()
    .transform((v) => (v ?? '').split(/[\s,]+/).filter((o) => o !== ''))
    .refine(
      (list) => list.every(isAddressOrRange),
      'must be CIDR ranges or IP addresses such as 127.0.0.1/32',
    )
    .transform((list) => list.map((o) => (o.includes('/') ? o : `${o}/${o.includes(':') ? 128 : 32}`))),
});

export type Env = z.infer<typeof envSchema> & { TAKT_PUBLIC_URL: string };

export function parseEnv(source: Record<string, string | undefined>): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration in the environment:\n${lines.join('\n')}`);
  }
  const env = {
    ...parsed.data,
    TAKT_PUBLIC_URL: parsed.data.TAKT_PUBLIC_URL ?? `http://localhost:${parsed.data.PORT}`,
  };
  if (env.TAKT_ADMIN_EMAIL && !env.TAKT_ADMIN_PASSWORD) {
    throw new Error(
      'Invalid configuration in the environment:\n  TAKT_ADMIN_PASSWORD: required with TAKT_ADMIN_EMAIL',
    );
  }
  return env;
}

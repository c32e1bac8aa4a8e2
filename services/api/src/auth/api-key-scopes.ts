import type { ApiKeyScope } from '@takt/domain';

// Which calls an API key may make (decision 0840). An allow-list, so a route added later is closed to keys
// until someone decides which scope opens it. Paths are the full request paths (under /api).
// `reports:read`: the report, dashboard and reject-list reads of reports-admin §7 "Reports", including the
// report queries sent as POST (warehouse and OEE), plus the reference lists a report query needs (shifts,
// jobs). Event export (POST /api/reports/event/queue) is left out: it e-mails the calling user.
// `operations:write`: the live-operations calls (dispatch, setup, operator runs, downtime, annotations,
// part adjustments) and the reads an integration needs to make them; part-adjustment lists are report
// reads. `jobs:write` (decision 1047): an ERP's work orders, i.e. jobs, job machines and production runs,
// read and write. The production-run list and the machine groups are report reads too (the production-runs
// report, the group filter).

type Rule = { methods: readonly string[]; path: RegExp };

const READ = ['GET'] as const;
const WRITE = ['POST', 'PUT', 'DELETE'] as const;
const ANY = [...READ, ...WRITE] as const;

export const API_KEY_RULES: Record<ApiKeyScope, readonly Rule[]> = {
  'reports:read': [
    { methods: READ, path: /^\/api\/reports\/(?!export\/|event\/).+$/ },
    { methods: ['POST'], path: /^\/api\/reports\/warehouse\/.+$/ },
    { methods: ['POST'], path: /^\/api\/oee\/(bymachine|byabstractshift)$/ },
    { methods: READ, path: /^\/api\/dashboard(\/.*)?$/ },
    { methods: READ, path: /^\/api\/partadjustment(\/(allRejectsByCategory|rejects))?\/?$/ },
    { methods: READ, path: /^\/api\/(shifts|jobs|productionruns|machinegroups)(\/.*)?$/ },
  ],
  'operations:write': [
    { methods: ANY, path: /^\/api\/(dispatch|downtime|annotations)(\/.*)?$/ },
    // The live operator calls (query, start, stop); the operator runs screen's calls are for sessions (1091).
    { methods: ANY, path: /^\/api\/operatorruns(\/(start|stop))?\/?$/ },
    { methods: WRITE, path: /^\/api\/partadjustment(\/.*)?$/ },
    { methods: ANY, path: /^\/api\/setup\/(parts|transition|end)$/ },
    {
      methods: READ,
      path: /^\/api\/(jobs|jobmachines|operators|annotationtypes|partadjustmenttypes)(\/.*)?$/,
    },
  ],
  'jobs:write': [{ methods: ANY, path: /^\/api\/(jobs|jobmachines|productionruns)(\/.*)?$/ }],
};

/** Every key may ask who it is (GET /api/me). */
const ALWAYS: readonly Rule[] = [{ methods: READ, path: /^\/api\/me\/?$/ }];

const matches = (rules: readonly Rule[], method: string, path: string) =>
  rules.some((r) => r.methods.includes(method) && r.path.test(path));

/** Whether a key with these scopes may make this call. */
export function apiKeyMayCall(scopes: readonly ApiKeyScope[], method: string, path: string): boolean {
  const m = method === 'HEAD' ? 'GET' : method;
  return matches(ALWAYS, m, path) || scopes.some((s) => matches(API_KEY_RULES[s] ?? [], m, path));
}

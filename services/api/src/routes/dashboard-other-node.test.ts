import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { DashboardResponse } from '@takt/domain';
import { companyScope } from '@takt/db';
import { liveDataVersion, recomputesNoted } from '@takt/db/rollups';
import { DIALECTS } from '@takt/db/testing';
import { bundledCommand } from '../../../ingest/src/testing/bundle';
import { DashboardAnswers } from '../services/dashboard-shared';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aMachine } from '../testing/builders';
import { aMachineLive, HOUR } from '../testing/downtime-builders';

// Decision 1219: an API-only node of the cluster (TAKT_INGEST=0) answers the dashboard from what another process
// wrote: the ingest nodes' live rows and their rollup worker's recomputes, none of which this process notes
// (version.ts recomputesNoted counts only its own). Its live data version (decision 1206) must still move with those
// writes, so its shared answer (decision 1200) is computed again. The writes come from a child process on the same
// database (testing/other-node.ts), on both dialects.

const OTHER_NODE = fileURLToPath(new URL('../testing/other-node.ts', import.meta.url));

/** Runs testing/other-node.ts with `args` in a process of its own; resolves when it has written and exited. */
async function otherNode(args: string[]): Promise<void> {
  const command = await bundledCommand(OTHER_NODE);
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [...command, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) =>
      code === 0 && out.includes('done') ? resolve() : reject(new Error(`other node (${code}): ${out}`)),
    );
  });
}

describe.each(DIALECTS)('an API-only node’s dashboard on %s', (dialect) => {
  it('computes its shared answer again when another process writes a live row or recomputes', async () => {
    const answers = new DashboardAnswers();
    const h = await apiHarness(dialect, undefined, { dashboardAnswers: answers });
    try {
      await otherNodeWrites(h, answers);
    } finally {
      await h.close();
    }
  }, 120_000);
});

/** The plant of one machine, and the other node's writes each followed by this node's answers. */
async function otherNodeWrites(h: ApiHarness, answers: DashboardAnswers) {
  const tenant = await h.tenant();
  const now = h.clock.now;
  const machine = await aMachine(h.t.db, tenant.company, { name: 'M1' });
  await aMachineLive(h.t.db, tenant.company, machine, {
    state: 'ACTIVE',
    since: now - HOUR,
    connectedSince: now - HOUR,
    now,
  });
  const scope = companyScope(h.t.db, tenant.company.id);
  const program = async () => {
    const res = await h.get('/api/dashboard', tenant.cookie);
    expect(res.status).toBe(200);
    return ((await res.json()) as DashboardResponse).machines[0]!.program;
  };
  const first = await program();
  expect(await program()).toBe(first);
  expect(answers.computed).toBe(1);

  // An ingest node stores a line: its live row rewritten in another process (the clock here stands still).
  await otherNode([h.t.url, tenant.company.id, machine, 'live', 'O7']);
  expect(await program()).toBe('O7');
  expect(answers.computed).toBe(2);

  // Its rollup worker recomputes the machine's hours: this process notes no recompute of its own.
  const noted = recomputesNoted(tenant.company.id);
  const before = await liveDataVersion(scope, now);
  await otherNode([
    h.t.url,
    tenant.company.id,
    machine,
    'recompute',
    String(now - 2 * HOUR),
    String(now),
    String(now),
  ]);
  expect(recomputesNoted(tenant.company.id)).toBe(noted);
  expect(await liveDataVersion(scope, now)).not.toBe(before);
  expect(await program()).toBe('O7');
  expect(answers.computed).toBe(3);
  // And nothing written since: the kept answer is given again.
  await program();
  expect(answers.computed).toBe(3);
}

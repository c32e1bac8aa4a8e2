import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONNECTION_KEY, companyScope } from '@takt/db';
import { DIALECTS } from '@takt/db/testing';
import type { Company } from './company';
import { connectionFacts, liveConnections } from './machine-connection';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { aMachine, someObservations } from '../testing/builders';

// The "ever reported" fact of a tile's connection words (decision 1055) read as one probe of each machine's raw
// rows (decision 1140): any stored observation but the link log counts, whatever else the machine has.
describe.each(DIALECTS)('connection facts on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  const observe = (company: Company, machineId: string, rows: Array<[number, string, string | null]>) =>
    someObservations(h.t.db, company, machineId, rows);

  it('counts a machine as reported from its first observation other than the link log, in its own company only', async () => {
    const { company } = await h.tenant();
    const { company: other } = await h.tenant();
    const now = h.clock.now;
    const silent = await aMachine(h.t.db, company);
    const linkOnly = await aMachine(h.t.db, company);
    const reported = await aMachine(h.t.db, company);
    const theirs = await aMachine(h.t.db, other);
    await observe(company, linkOnly, [
      [now - 3000, CONNECTION_KEY, 'CONNECTED'],
      [now - 2000, CONNECTION_KEY, 'DISCONNECTED'],
    ]);
    // The link log first, then data: the probe does not stop at the log's rows.
    await observe(company, reported, [
      [now - 3000, CONNECTION_KEY, 'CONNECTED'],
      [now - 2000, 'exec', 'READY'],
    ]);
    await observe(other, theirs, [[now - 1000, 'exec', 'ACTIVE']]);

    const scope = companyScope(h.t.db, company.id);
    const ids = [silent, linkOnly, reported, theirs];
    const live = await liveConnections(scope, ids);
    const facts = await connectionFacts(scope, ids);
    const reportedOf = (m: Map<string, { everReported: boolean }>) =>
      ids.map((id) => m.get(id)?.everReported ?? 'absent');
    expect(ids.map((id) => live.get(id)?.facts.everReported ?? 'absent')).toEqual([
      false,
      false,
      true,
      'absent',
    ]);
    expect(reportedOf(facts)).toEqual([false, false, true, 'absent']);
    // The other company sees its own machine as reported.
    const theirFacts = await connectionFacts(companyScope(h.t.db, other.id), ids);
    expect(reportedOf(theirFacts)).toEqual(['absent', 'absent', 'absent', true]);
  });
});

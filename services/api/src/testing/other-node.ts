// Another node's writes, from a process of its own on the same database (the tests of an API-only node, decision
// 1219): what an ingest node of the cluster writes while an API node answers. Not used at run time.
//   node other-node.ts <database url> <company id> <machine id> live <program>
//   node other-node.ts <database url> <company id> <machine id> recompute <from> <to> <now>
import { companyScope, openDb } from '@takt/db';
import { recomputeRollups } from '@takt/db/rollups';

const [url, companyId, machineId, what, ...rest] = process.argv.slice(2);
if (!url || !companyId || !machineId || (what !== 'live' && what !== 'recompute')) {
  console.error('usage: other-node <url> <company> <machine> live <program> | recompute <from> <to> <now>');
  process.exit(2);
}
const db = openDb(url);
try {
  if (what === 'live')
    await companyScope(db.db, companyId)
      .updateTable('machine_live')
      .set({ program: rest[0]! })
      .where('machine_id', '=', machineId)
      .execute();
  else {
    const [from, to, now] = rest.map(Number);
    await recomputeRollups(db.db, { companyId, machineId, from: from!, to: to!, now: now! });
  }
  process.stdout.write('done\n');
} finally {
  await db.close();
}

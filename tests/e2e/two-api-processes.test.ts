import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DEMO_LOGINS, DEMO_MANUAL_STATIONS, DEMO_PLANT } from '@takt/api';
import { freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { startProduct } from './harness';
import type { RunningProduct } from './harness';

// An update reaches live-channel subscribers on every API process. Two real product
// processes share one PostgreSQL database: A runs ingest with the simulated plant, B serves the API only.
const admin = DEMO_LOGINS.find((l) => l.role === 'admin')!;

describe('the live channel across two API processes on one PostgreSQL', () => {
  let db: TestDb;
  let a: RunningProduct;
  let b: RunningProduct;

  beforeAll(async () => {
    db = await freshDb('postgres');
    a = await startProduct({ DATABASE_URL: db.url, TAKT_DEMO_SPEED: '20' });
    b = await startProduct({ DATABASE_URL: db.url, TAKT_DEMO: '0', TAKT_INGEST: '0' });
  }, 120_000);

  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    await db?.cleanup();
  });

  it('delivers machine changes ingested by process A to a socket held by process B', async () => {
    const login = await fetch(`${b.url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: admin.email, password: admin.password }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const machines = (await (await fetch(`${b.url}/api/dashboard`, { headers: { cookie } })).json()) as {
      machines: Array<{ id: string }>;
    };
    const workCenters =
      DEMO_PLANT.flatMap((g) => g.machines).length + DEMO_MANUAL_STATIONS.flatMap((g) => g.stations).length;
    expect(machines.machines.length).toBe(workCenters);

    const ws = new WebSocket(`${b.url.replace('http', 'ws')}/live`, { headers: { cookie } });
    const updates: Array<{ event: string; machine_id?: string }> = [];
    ws.on('message', (data) => updates.push(JSON.parse(String(data))));
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    for (const m of machines.machines)
      ws.send(JSON.stringify({ event: 'join', machine_id: m.id, name: 'live' }));
    try {
      // B ingests nothing itself: every channel_update it sends came from A through LISTEN/NOTIFY.
      await expect
        .poll(() => updates.filter((u) => u.event === 'channel_update').length, { timeout: 30_000 })
        .toBeGreaterThan(0);
      expect(b.output()).not.toContain('[ingest] deriving');
    } finally {
      ws.terminate();
    }
  }, 60_000);
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { companyScope } from '@takt/db';
import { DIALECTS } from '@takt/db/testing';
import { MAX_SOCKET_MESSAGE_BYTES } from '../../services/api/src/app';
import { JSON_ONLY_MESSAGE } from '../../services/api/src/http/content-type';
import { inProcessBus } from '../../services/api/src/live/bus';
import { FOREIGN_ORIGIN_MESSAGE } from '../../services/api/src/live/origin';
import { TABLET_AUTH_LIMITS, TABLET_AUTH_TEXTS } from '../../services/api/src/live/tablet-auth';
import { requestCode } from '../../services/api/src/repositories/tablets';
import { TABLET_TEXTS, WRONG_CODES } from '../../services/api/src/services/tablets';
import { apiHarness } from '../../services/api/src/testing/app';
import type { ApiHarness } from '../../services/api/src/testing/app';
import { aMachine, aUser } from '../../services/api/src/testing/builders';
import { aRejectReason } from '../../services/api/src/testing/downtime-builders';
import { aTablet } from '../../services/api/src/testing/tablet-builders';
import type { Company } from '../../services/api/src/repositories/company';
import { login, openSocket, startNode, stopAll } from '../../services/api/src/testing/ws';
import type { Node } from '../../services/api/src/testing/ws';

// Issue 26, devices and transport: finding 6 (tablet registration hijack and flood), finding 7 (the tablet
// binding skipped for text/plain and unlabelled bodies), and from finding 8 the security headers on pages,
// /sw.js and assets, and the Origin of /live (decisions 0992-0995). One API node per dialect, a real server:
// sockets need one, and only behind one did the pages lose their headers.

describe.each(DIALECTS)('devices and transport on %s', (dialect) => {
  let h: ApiHarness;
  let node: Node;
  let dir: string;
  const sockets: WebSocket[] = [];
  let admin: { cookie: string; company: Company; companyId: string; machine: string };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'takt-devices-'));
    const dist = join(dir, 'apps', 'floor-pwa', 'dist');
    mkdirSync(join(dist, 'floor-assets'), { recursive: true });
    writeFileSync(join(dist, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
    writeFileSync(join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {});');
    writeFileSync(join(dist, 'floor-assets', 'index-abc123.js'), 'export {};');
    h = await apiHarness(dialect);
    node = await startNode(h.t, dialect, inProcessBus(), () => Date.now(), { staticRoot: dir });
    const me = await h.tenant();
    const user = await aUser(h.t.db, me.company, { role: 'admin' });
    admin = {
      cookie: await login(node, user.email, user.password),
      company: me.company,
      companyId: me.company.id,
      machine: await aMachine(h.t.db, me.company, { name: 'Lathe 7' }),
    };
  });
  afterEach(() => {
    sockets.splice(0).forEach((s) => s.terminate());
  });
  afterAll(async () => {
    await stopAll(sockets, [node]);
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const ownOrigin = () => `http://${node.url}`;
  const tabletSocket = async () => {
    const s = await openSocket(node, '/tablet-auth', undefined, { origin: ownOrigin() });
    sockets.push(s.ws);
    return s;
  };
  const associate = (code: unknown) =>
    fetch(`http://${node.url}/api/tablets/associate`, {
      method: 'POST',
      headers: { cookie: admin.cookie, origin: ownOrigin(), 'content-type': 'application/json' },
      body: JSON.stringify({ code, machineId: admin.machine }),
    });
  const pendingWith = async (serialPrefix: string) =>
    (
      await h.t.db
        .selectFrom('tablets')
        .select('id')
        .where('serial_number', 'like', `${serialPrefix}%`)
        .where('state', '=', 'pending')
        .execute()
    ).length;
  /** The HTTP status an upgrade is answered with (101 when the socket opened). */
  const upgradeStatus = (path: string, headers: Record<string, string>) =>
    new Promise<number>((resolve) => {
      const ws = new WebSocket(`ws://${node.url}${path}`, { headers });
      ws.once('open', () => {
        ws.terminate();
        resolve(101);
      });
      ws.once('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0);
        ws.terminate();
      });
      ws.on('error', () => {});
    });

  it('finding 6: two sockets asking with the same serial get their own codes; the token goes only to the one whose code was typed', async () => {
    const first = await tabletSocket();
    first.send({ event: 'get_code', serial_number: 'SN-SHARED' });
    const firstCode = await first.next((m) => m.event === 'send_code', 'the first socket’s code');
    const second = await tabletSocket();
    second.send({ event: 'get_code', serial_number: 'SN-SHARED' });
    const secondCode = await second.next((m) => m.event === 'send_code', 'the second socket’s code');
    expect(secondCode.code).not.toBe(firstCode.code);
    expect(secondCode.tablet_id).not.toBe(firstCode.tablet_id);

    const res = await associate(secondCode.code);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: secondCode.tablet_id, notified: true });
    const registered = await second.next((m) => m.event === 'registered', 'the second socket’s token');
    expect(String(registered.token)).toMatch(/^ttb_/);
    // The in-process bus delivered the association to every socket at once: the first heard nothing of it.
    expect(first.messages.map((m) => m.event)).toEqual(['send_code']);
    expect(JSON.stringify(first.messages)).not.toContain(String(registered.token));
    // The token activates the second device only.
    const act = await fetch(`http://${node.url}/tablet/activate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${String(registered.token)}`, 'content-type': 'application/json' },
    });
    expect(act.status).toBe(200);
    expect(((await act.json()) as { tablet: { id: string } }).tablet.id).toBe(secondCode.tablet_id);
    // The first socket's code still names its own registration, which its socket alone may receive.
    first.ws.close();
    await expect.poll(() => pendingWith('SN-SHARED')).toBe(0);
    expect((await associate(firstCode.code)).status).toBe(404);
  });

  it('finding 6: 1,000 code requests on one socket make one pending registration, are refused past the limit, and the socket is closed', async () => {
    const s = await tabletSocket();
    const closed = new Promise<number>((resolve) => s.ws.once('close', (code) => resolve(code)));
    s.send({ event: 'get_code', serial_number: 'SN-FLOOD-0' });
    await s.next((m) => m.event === 'send_code', 'the first code');
    for (let i = 1; i < 1000; i++) s.send({ event: 'get_code', serial_number: `SN-FLOOD-${i}` });
    expect(await closed).toBe(1008);
    const refused = s.messages.find((m) => m.event === 'error');
    expect(refused).toEqual({
      event: 'error',
      code: 'TOO_MANY_REQUESTS',
      message: TABLET_AUTH_TEXTS.tooManyMessages,
    });
    const codes = s.messages.filter((m) => m.event === 'send_code');
    expect(codes.length).toBeLessThanOrEqual(TABLET_AUTH_LIMITS.messagesPerMinute);
    expect(new Set(codes.map((m) => m.tablet_id)).size).toBe(1);
    // The one registration leaves with its socket.
    await expect.poll(() => pendingWith('SN-FLOOD-')).toBe(0);
  });

  it('finding 6: new registrations from one address are limited, with a clear refusal', async () => {
    const answers: Array<Record<string, unknown>> = [];
    for (let i = 0; i < TABLET_AUTH_LIMITS.registrations.limit + 3; i++) {
      const s = await tabletSocket();
      s.send({ event: 'get_code', serial_number: `SN-MANY-${i}` });
      answers.push(await s.next((m) => m.event === 'send_code' || m.event === 'error', 'an answer'));
    }
    const refusals = answers.filter((m) => m.event === 'error');
    expect(refusals.length).toBeGreaterThanOrEqual(3);
    expect(refusals[0]).toMatchObject({ code: 'TOO_MANY_REQUESTS', message: TABLET_AUTH_TEXTS.tooManyCodes });
    expect(refusals[0]!.retryAfter).toBeGreaterThan(0);
    expect(await pendingWith('SN-MANY-')).toBeLessThanOrEqual(TABLET_AUTH_LIMITS.registrations.limit);
  });

  it('finding 6: an admin guessing codes is stopped after 20 that match nothing, before the lookup', async () => {
    const guesser = await h.tenant();
    const { code } = await requestCode(h.t.db, 'SN-GUESSED', Date.now());
    const typed = (c: string) => h.send('POST', '/api/tablets/associate', guesser.cookie, { code: c });
    // A code that works is not counted.
    const { code: own } = await requestCode(h.t.db, 'SN-OWN', Date.now());
    expect((await typed(own)).status).toBe(200);
    for (let i = 0; i < WRONG_CODES.limit; i++) expect((await typed(`ZZZZ${i}`)).status).toBe(404);
    const refused = await typed(code);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({
      error: { code: 'TOO_MANY_REQUESTS', message: TABLET_TEXTS.tooManyWrongCodes },
    });
    expect(await pendingWith('SN-GUESSED')).toBe(1);
  });

  it('finding 7: a bound tablet posting for another machine as text/plain or unlabelled gets 415, and nothing is stored', async () => {
    const company = admin.company;
    const other = await aMachine(h.t.db, company, { name: 'Mill 2' });
    const reason = await aRejectReason(h.t.db, company, { reject_behavior: 'scrap' });
    const tablet = await aTablet(h.t.db, company, admin.machine, h.clock.now);
    const body = JSON.stringify({
      scrap: true,
      adjustmenttime: h.clock.now - 60_000,
      machine_id: other,
      category_id: reason.id,
      scrapcount: 1,
    });
    const post = (headers: Record<string, string>, payload: BodyInit) =>
      h.app.request('/api/partadjustment', {
        method: 'POST',
        headers: { cookie: tablet.cookie, origin: 'http://localhost', ...headers },
        body: payload,
      });
    for (const res of [
      await post({ 'content-type': 'text/plain' }, body),
      // Bytes carry no content type of their own.
      await post({}, new TextEncoder().encode(body)),
      await post({ 'content-type': 'application/json; charset=latin1' }, body),
      await post({ 'content-type': 'application/x-www-form-urlencoded' }, body),
    ]) {
      expect(res.status).toBe(415);
      expect(await res.json()).toEqual({
        error: { code: 'UNSUPPORTED_MEDIA_TYPE', message: JSON_ONLY_MESSAGE },
      });
    }
    // As JSON the binding refuses it.
    expect((await post({ 'content-type': 'application/json; charset=UTF-8' }, body)).status).toBe(403);
    const stored = await companyScope(h.t.db, admin.companyId)
      .selectFrom('part_adjustments')
      .select('id')
      .where('machine_id', '=', other)
      .execute();
    expect(stored).toEqual([]);
  });

  it('finding 8: app pages, /sw.js and assets carry the security headers behind a real server', async () => {
    for (const path of [
      '/dashboards/live/utilization',
      '/tablet/register',
      '/sw.js',
      '/floor-assets/index-abc123.js',
    ]) {
      const res = await fetch(`http://${node.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('referrer-policy'), path).toBe('same-origin');
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-request-id'), path).toMatch(/^[0-9a-f-]{36}$/);
      await res.body?.cancel();
    }
  });

  it('finding 8: /live and /tablet-auth refuse an upgrade from another site’s page (403), and take their own', async () => {
    for (const path of ['/live', '/tablet-auth']) {
      for (const origin of ['https://evil.example', 'null', `http://${node.url}.evil.example`]) {
        expect(await upgradeStatus(path, { origin, cookie: admin.cookie }), `${path} ${origin}`).toBe(403);
      }
      expect(await upgradeStatus(path, { origin: ownOrigin(), cookie: admin.cookie }), path).toBe(101);
    }
    const refused = await fetch(`http://${node.url}/live`, {
      headers: { origin: 'https://evil.example' },
    });
    expect(await refused.json()).toEqual({
      error: { code: 'FORBIDDEN_ORIGIN', message: FOREIGN_ORIGIN_MESSAGE },
    });
  });

  it('finding 6: no new registration while the pending ones of every address reach the global cap', async () => {
    const expiresAt = Date.now() + 60_000;
    await h.t.db
      .insertInto('tablets')
      .values(
        Array.from({ length: TABLET_AUTH_LIMITS.livePending }, (_, i) => ({
          id: crypto.randomUUID(),
          company_id: null,
          serial_number: `SN-CAP-${i}`,
          code: `CAP${String(i).padStart(3, '0')}`,
          code_expires_at: expiresAt,
          created_at: Date.now(),
        })),
      )
      .execute();
    const s = await tabletSocket();
    s.send({ event: 'get_code', serial_number: 'SN-OVER-CAP' });
    expect(await s.next((m) => m.event === 'send_code' || m.event === 'error', 'an answer')).toEqual({
      event: 'error',
      code: 'TOO_MANY_REQUESTS',
      message: TABLET_AUTH_TEXTS.tooManyPending,
    });
    expect(await pendingWith('SN-OVER-CAP')).toBe(0);
    await h.t.db.deleteFrom('tablets').where('serial_number', 'like', 'SN-CAP-%').execute();
  });

  it('closes a socket that sends a message over 64 KiB (1009) instead of buffering it', async () => {
    const s = await tabletSocket();
    const closed = new Promise<number>((resolve) => s.ws.once('close', (code) => resolve(code)));
    s.send({ event: 'get_code', serial_number: 'x'.repeat(MAX_SOCKET_MESSAGE_BYTES) });
    expect(await closed).toBe(1009);
  });

  // Last: it spends this address's upgrades for the minute.
  it('finding 8: /tablet-auth upgrades are limited per client address (429)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= TABLET_AUTH_LIMITS.upgrades.limit; i++)
      statuses.push(await upgradeStatus('/tablet-auth', { origin: ownOrigin() }));
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.filter((s) => s === 101).length).toBeLessThanOrEqual(TABLET_AUTH_LIMITS.upgrades.limit);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { operatorRunSchema, operatorSchema } from '@takt/domain';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { aCompany, aMachine } from '../testing/builders';
import { DIALECTS } from '@takt/db/testing';
import { anOperator, anOperatorRun, aShift, errorOf, issueFields, loginAs } from '../testing/live-builders';

const operators = z.array(operatorSchema);
const runs = z.array(operatorRunSchema);
/** A time inside the window of decision 0980 (the harness clock is 2025-11-22). */
const RUN_AT = Date.UTC(2025, 10, 20);

describe.each(DIALECTS)('operators and operator runs on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  const list = (cookie: string, query = '') => h.read(`/api/operators${query}`, cookie, operators);
  const login = (cookie: string, body: unknown) => h.send('POST', '/api/operatorruns/start', cookie, body);
  const logout = (cookie: string, body: unknown) => h.send('POST', '/api/operatorruns/stop', cookie, body);

  describe('operators', () => {
    it('answers an empty list when there are none (the UI says "No Operators configured.")', async () => {
      const { cookie } = await h.tenant();
      expect(await list(cookie)).toEqual([]);
    });

    it('creates, edits, archives, restores and deletes operators (admins); lists them by name with runCount', async () => {
      const { company, cookie } = await h.tenant();
      const created = await h.send('POST', '/api/operators', cookie, { name: ' Zoe ', erpId: 'E-7' });
      expect(created.status).toBe(201);
      const zoe = operatorSchema.parse(await created.json());
      expect(zoe).toMatchObject({ name: 'Zoe', erpId: 'E-7', archivedAt: null, runCount: 0 });
      const adam = operatorSchema.parse(
        await (await h.send('POST', '/api/operators', cookie, { name: 'Adam' })).json(),
      );
      const machine = await aMachine(h.t.db, company);
      await anOperatorRun(h.t.db, company, { machineId: machine, operatorId: zoe.id, startAt: 1, endAt: 2 });
      await anOperatorRun(h.t.db, company, { machineId: machine, operatorId: zoe.id, startAt: 3, endAt: 4 });
      expect((await list(cookie)).map((o) => [o.name, o.runCount])).toEqual([
        ['Adam', 0],
        ['Zoe', 2],
      ]);

      const edited = await h.send('PUT', `/api/operators/${adam.id}`, cookie, {
        name: 'Adam B.',
        erpId: null,
      });
      expect(operatorSchema.parse(await edited.json())).toMatchObject({ name: 'Adam B.', erpId: null });

      const archived = operatorSchema.parse(
        await (await h.send('PUT', `/api/operators/${adam.id}/archive`, cookie)).json(),
      );
      expect(archived.archivedAt).toBe(h.clock.now);
      expect((await list(cookie)).map((o) => o.name)).toEqual(['Zoe']);
      expect((await list(cookie, '?includeArchived=true')).map((o) => o.name)).toEqual(['Adam B.', 'Zoe']);
      const restored = operatorSchema.parse(
        await (await h.send('PUT', `/api/operators/${adam.id}/restore`, cookie)).json(),
      );
      expect(restored.archivedAt).toBeNull();

      const refused = await h.send('DELETE', `/api/operators/${zoe.id}`, cookie);
      expect(refused.status).toBe(409);
      expect((await errorOf(refused)).message).toBe(
        'This operator has runs and cannot be deleted. Archive it instead.',
      );
      expect((await h.send('DELETE', `/api/operators/${adam.id}`, cookie)).status).toBe(204);
      expect((await list(cookie, '?includeArchived=true')).map((o) => o.name)).toEqual(['Zoe']);
    });

    it('answers 400 with the problems for a missing name or a name over 250 characters', async () => {
      const { cookie } = await h.tenant();
      const res = await h.send('POST', '/api/operators', cookie, { erpId: 5 });
      expect(res.status).toBe(400);
      const e = await errorOf(res);
      expect(issueFields(e)).toEqual(['erpId', 'name']);
      expect(e.issues?.find((i) => i.field === 'name')?.message).toBe('Missing required field: Name');
      const long = await h.send('POST', '/api/operators', cookie, { name: 'x'.repeat(251) });
      expect(long.status).toBe(400);
    });

    it('lets anyone with FullProduct list operators; changes are for admins', async () => {
      const { company } = await h.tenant();
      const operator = await loginAs(h, company, 'operator');
      const id = await anOperator(h.t.db, company, { name: 'Kim' });
      expect((await list(operator)).map((o) => o.name)).toEqual(['Kim']);
      expect((await h.send('POST', '/api/operators', operator, { name: 'X' })).status).toBe(403);
      expect((await h.send('PUT', `/api/operators/${id}`, operator, { name: 'X' })).status).toBe(403);
      expect((await h.send('PUT', `/api/operators/${id}/archive`, operator)).status).toBe(403);
      expect((await h.send('DELETE', `/api/operators/${id}`, operator)).status).toBe(403);
      const small = await aCompany(h.t.db, { productTier: 'utilization' });
      expect((await h.get('/api/operators', await loginAs(h, small, 'admin'))).status).toBe(403);
    });

    it("answers 404 for another company's operator and never lists it", async () => {
      const mine = await h.tenant();
      const theirs = await h.tenant();
      const id = await anOperator(h.t.db, theirs.company, { name: 'Theirs' });
      expect(await list(mine.cookie, '?includeArchived=true')).toEqual([]);
      expect((await h.send('PUT', `/api/operators/${id}`, mine.cookie, { name: 'Mine now' })).status).toBe(
        404,
      );
      expect((await h.send('PUT', `/api/operators/${id}/archive`, mine.cookie)).status).toBe(404);
      expect((await h.send('PUT', `/api/operators/${id}/restore`, mine.cookie)).status).toBe(404);
      expect((await h.send('DELETE', `/api/operators/${id}`, mine.cookie)).status).toBe(404);
      expect((await list(theirs.cookie)).map((o) => [o.name, o.archivedAt])).toEqual([['Theirs', null]]);
    });
  });

  describe('operator runs', () => {
    it('logs an operator in now, hands over to the next one, lists the runs and logs out', async () => {
      const { company, cookie } = await h.tenant();
      const machine = await aMachine(h.t.db, company);
      const ann = await anOperator(h.t.db, company, { name: 'Ann' });
      const bob = await anOperator(h.t.db, company, { name: 'Bob' });
      const t0 = h.clock.now;
      const first = await login(cookie, { machineId: machine, operatorId: ann });
      expect(first.status).toBe(201);
      expect(operatorRunSchema.parse(await first.json())).toMatchObject({
        machineId: machine,
        operatorId: ann,
        startAt: t0,
        endAt: null,
        operator: { name: 'Ann' },
      });
      h.clock.now = t0 + 3_600_000;
      expect((await login(cookie, { machineId: machine, operatorId: bob })).status).toBe(201);
      h.clock.now = t0 + 7_200_000;
      const out = await logout(cookie, { machineId: machine });
      expect(out.status).toBe(200);
      expect(operatorRunSchema.parse(await out.json())).toMatchObject({
        operatorId: bob,
        endAt: t0 + 7_200_000,
      });

      const res = await h.get(
        `/api/operatorruns?machineId=${machine}&startAt=${t0}&endAt=${t0 + 86_400_000}`,
        cookie,
      );
      expect(res.status).toBe(200);
      expect(runs.parse(await res.json()).map((r) => [r.operator.name, r.startAt, r.endAt])).toEqual([
        ['Ann', t0, t0 + 3_600_000],
        ['Bob', t0 + 3_600_000, t0 + 7_200_000],
      ]);
      const later = await h.get(
        `/api/operatorruns?machineId=${machine}&startAt=${t0 + 3_600_000}&endAt=${t0 + 3_600_001}`,
        cookie,
      );
      expect(runs.parse(await later.json()).map((r) => r.operator.name)).toEqual(['Bob']);

      const none = await logout(cookie, { machineId: machine });
      expect(none.status).toBe(409);
      expect((await errorOf(none)).message).toBe('No operator is logged in on this machine.');
    });

    it('pins a log-in to the start of the current shift, never before the previous operator change', async () => {
      const { company, cookie } = await h.tenant();
      // The harness clock is Sat 2025-11-22 02:26:40 in Chicago; the night shift runs 22:00–06:00.
      await aShift(h.t.db, company, { name: 'Night', startoffsetminutes: 1320, endoffsetminutes: 360 });
      const shiftStart = Date.parse('2025-11-22T04:00:00Z');
      const machine = await aMachine(h.t.db, company);
      const other = await aMachine(h.t.db, company);
      const ann = await anOperator(h.t.db, company, { name: 'Ann' });
      const bob = await anOperator(h.t.db, company, { name: 'Bob' });
      const pinned = await login(cookie, { machineId: machine, operatorId: ann, pinToPreviousEvent: true });
      expect(pinned.status).toBe(201);
      expect(operatorRunSchema.parse(await pinned.json()).startAt).toBe(shiftStart);
      // On the other machine someone logged out mid-shift: the pinned log-in starts there.
      await anOperatorRun(h.t.db, company, {
        machineId: other,
        operatorId: bob,
        startAt: shiftStart,
        endAt: shiftStart + 1_800_000,
      });
      const after = await login(cookie, { machineId: other, operatorId: ann, pinToPreviousEvent: true });
      expect(operatorRunSchema.parse(await after.json()).startAt).toBe(shiftStart + 1_800_000);
    });

    it('refuses a pinned log-in between shifts, and an archived operator', async () => {
      const { company, cookie } = await h.tenant();
      await aShift(h.t.db, company, { name: 'Day', startoffsetminutes: 360, endoffsetminutes: 840 });
      const machine = await aMachine(h.t.db, company);
      const ann = await anOperator(h.t.db, company, { name: 'Ann' });
      const res = await login(cookie, { machineId: machine, operatorId: ann, pinToPreviousEvent: true });
      expect(res.status).toBe(409);
      expect((await errorOf(res)).message).toBe('There is no current shift to log in at the start of.');
      await h.send('PUT', `/api/operators/${ann}/archive`, cookie);
      const archived = await login(cookie, { machineId: machine, operatorId: ann });
      expect(archived.status).toBe(409);
      expect((await errorOf(archived)).message).toBe('Ann is archived and cannot log in.');
    });

    it('answers 400 with the problems for bad input', async () => {
      const { company, cookie } = await h.tenant();
      const machine = await aMachine(h.t.db, company);
      const q = await h.get(
        `/api/operatorruns?machineId=${machine}&startAt=${RUN_AT}&endAt=${RUN_AT}`,
        cookie,
      );
      expect(q.status).toBe(400);
      expect((await errorOf(q)).issues?.[0]).toMatchObject({
        field: 'endAt',
        message: 'Start Date must be before End Date',
      });
      expect(issueFields(await errorOf(await h.get('/api/operatorruns', cookie)))).toEqual([
        'endAt',
        'machineId',
        'startAt',
      ]);
      expect(
        issueFields(await errorOf(await login(cookie, { machineId: machine, pinToPreviousEvent: 'yes' }))),
      ).toEqual(['operatorId', 'pinToPreviousEvent']);
      expect(issueFields(await errorOf(await logout(cookie, {})))).toEqual(['machineId']);
    });

    it('lets an operator log in and out (FullProduct); not without FullProduct', async () => {
      const { company } = await h.tenant();
      const operator = await loginAs(h, company, 'operator');
      const machine = await aMachine(h.t.db, company);
      const ann = await anOperator(h.t.db, company);
      expect((await login(operator, { machineId: machine, operatorId: ann })).status).toBe(201);
      expect((await logout(operator, { machineId: machine })).status).toBe(200);
      const small = await aCompany(h.t.db, { productTier: 'utilization' });
      const cookie = await loginAs(h, small, 'admin');
      expect((await login(cookie, { machineId: machine, operatorId: ann })).status).toBe(403);
      expect(
        (await h.get(`/api/operatorruns?machineId=${machine}&startAt=${RUN_AT}&endAt=${RUN_AT + 1}`, cookie))
          .status,
      ).toBe(403);
    });

    it("answers 404 for another company's machine or operator and leaves its runs alone", async () => {
      const mine = await h.tenant();
      const theirs = await h.tenant();
      const myMachine = await aMachine(h.t.db, mine.company);
      const myOperator = await anOperator(h.t.db, mine.company);
      const theirMachine = await aMachine(h.t.db, theirs.company);
      const theirOperator = await anOperator(h.t.db, theirs.company);
      await anOperatorRun(h.t.db, theirs.company, {
        machineId: theirMachine,
        operatorId: theirOperator,
        startAt: RUN_AT + 1,
      });
      expect((await login(mine.cookie, { machineId: theirMachine, operatorId: myOperator })).status).toBe(
        404,
      );
      expect((await login(mine.cookie, { machineId: myMachine, operatorId: theirOperator })).status).toBe(
        404,
      );
      expect((await logout(mine.cookie, { machineId: theirMachine })).status).toBe(404);
      expect(
        (
          await h.get(
            `/api/operatorruns?machineId=${theirMachine}&startAt=${RUN_AT}&endAt=${RUN_AT + 9}`,
            mine.cookie,
          )
        ).status,
      ).toBe(404);
      const theirRuns = await h.get(
        `/api/operatorruns?machineId=${theirMachine}&startAt=${RUN_AT}&endAt=${RUN_AT + 9}`,
        theirs.cookie,
      );
      expect(runs.parse(await theirRuns.json()).map((r) => r.endAt)).toEqual([null]);
    });
  });
});

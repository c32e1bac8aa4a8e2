import { describe, expect, it } from 'vitest';
import {
  annotationCreateBulkRequestSchema,
  annotationTypeSchema,
  channelJoinSchema,
  downtimeReportQuerySchema,
  endSetupRequestSchema,
  eventExportRequestSchema,
  jobMachineSchema,
  partGoalsQuerySchema,
  rejectRequestSchema,
  setupStagesSaveRequestSchema,
  shiftSchema,
} from './index';

const reject = {
  machine_id: 'm1',
  adjustmenttime: 1_700_000_000_000,
  category_id: 'burr',
  scrapcount: 2,
  count: 0,
  scrap: true,
  deductFromGoodParts: true,
  reject_behavior: 'scrap',
};

describe('schemas', () => {
  it('defaults of the spec: annotation type colour and limit, JobMachine standards', () => {
    expect(
      annotationTypeSchema.parse({
        id: 'a',
        name: 'Lunch',
        companyId: 'c',
        plannedBehavior: 'plannedWithLimit',
      }),
    ).toMatchObject({
      color: '#828282',
      plannedLimitMs: 300_000,
      hidden: false,
    });
    expect(
      jobMachineSchema.parse({ id: 'x', name: 'J', machine_id: 'm', job_id: 'j', setuptime: null }),
    ).toMatchObject({
      expectedCycleTime: 60_000,
      idealCycleTime: 60_000,
      partCountMultiplier: 1,
      actualParts: 1,
      partBehavior: 'one',
      startInSetup: 'none',
      schedule: { ends: 'never' },
    });
  });

  it.each([
    { name: 'removed from good parts sends 0', body: reject, ok: true },
    {
      name: 'not removed sends the scrap count',
      body: { ...reject, deductFromGoodParts: false, count: 2 },
      ok: true,
    },
    { name: 'removed but count = scrap count', body: { ...reject, count: 2 }, ok: false },
    { name: 'count below 1', body: { ...reject, scrapcount: 0 }, ok: false },
    { name: 'note over 250 characters', body: { ...reject, message: 'x'.repeat(251) }, ok: false },
  ])('reject body: $name', ({ body, ok }) => {
    expect(rejectRequestSchema.safeParse(body).success).toBe(ok);
  });

  it('request rules: setup notes, stage percentages, bulk categorize, event export range', () => {
    expect(
      endSetupRequestSchema.safeParse({ jsgId: 'j', machineId: 'm', message: 'x'.repeat(250) }).success,
    ).toBe(true);
    expect(
      endSetupRequestSchema.safeParse({ jsgId: 'j', machineId: 'm', message: 'x'.repeat(251) }).success,
    ).toBe(false);
    const stage = (p: number) => ({ name: `s${p}`, stageOrder: 0, setupPercentage: p });
    expect(setupStagesSaveRequestSchema.safeParse({ setupStages: [stage(40), stage(60)] }).success).toBe(
      true,
    );
    expect(setupStagesSaveRequestSchema.safeParse({ setupStages: [stage(40), stage(50)] }).success).toBe(
      false,
    );
    expect(annotationCreateBulkRequestSchema.safeParse({ annotations: [] }).success).toBe(false);
    const exp = eventExportRequestSchema.safeParse({ machineId: 'm', start: 2, end: 1 });
    expect(exp.success).toBe(false);
    expect(exp.error?.issues[0]?.message).toBe('Start Date must be before End Date');
  });

  it('query strings are coerced; an invalid interval falls back to day', () => {
    const q = partGoalsQuerySchema.parse({ start: '1000', end: '2000', interval: 'fortnight' });
    expect(q).toMatchObject({ start: 1000, end: 2000, interval: 'day' });
    expect(
      downtimeReportQuerySchema.parse({ start: '1', end: '2', shifts: 'a,b', onlyScheduled: 'true' }),
    ).toMatchObject({
      shifts: ['a', 'b'],
      onlyScheduled: true,
      showPlanned: true,
    });
  });

  it('shift versions need a weekday; channel joins are a closed union', () => {
    const v = {
      startoffsetminutes: 360,
      endoffsetminutes: 840,
      byweekday: [0],
      is_termination_set: false,
      terminationdate: null,
    };
    const shift = {
      id: 's',
      name: 'Day',
      terminated: false,
      current: v,
      latest: null,
      effectivedate: '2024-01-01',
    };
    expect(shiftSchema.safeParse(shift).success).toBe(true);
    expect(shiftSchema.safeParse({ ...shift, current: { ...v, byweekday: [] } }).success).toBe(false);
    expect(
      channelJoinSchema.safeParse({
        name: 'temp_timeline',
        machine_id: 'm',
        config: { start: 1, end: 2, key: 'k' },
      }).success,
    ).toBe(true);
    expect(channelJoinSchema.safeParse({ name: 'other', machine_id: 'm' }).success).toBe(false);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { companyScope } from '@takt/db';
import { DIALECTS } from '@takt/db/testing';
import { createAdapter } from '../repositories/adapters';
import { integrationTypeSchema } from '../services/adapter-artifacts';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { aUser } from '../testing/builders';
import { errorOf, loginAs } from '../testing/live-builders';

// Integration types and adapter artifacts (issue 29 point 8, decision 1108): the ways data arrives, and an
// adapter's Devices.xml and SHDR key sheet, which the adapter import reads back as an exact match.

describe.each(DIALECTS)('integration types and adapter artifacts on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  async function millAdapter(companyId: string) {
    return createAdapter(
      companyScope(h.t.db, companyId),
      {
        name: 'Haas & Co <VF-2>',
        fields: [
          { name: 'exec', dataItemType: 'EXECUTION', componentName: 'path', componentType: 'Path' },
          { name: 'pc', dataItemType: 'PART_COUNT', componentName: 'path', componentType: 'Path' },
          { name: 'prog', dataItemType: 'PROGRAM', componentName: 'path', componentType: 'Path' },
          { name: 'Sspeed', dataItemType: 'SPINDLE_SPEED', componentName: 'C', componentType: 'Rotary' },
          {
            name: 'system',
            dataItemType: 'SYSTEM',
            componentName: 'controller',
            componentType: 'Controller',
          },
        ],
      },
      1,
    );
  }

  it('lists the integration types with what each needs and the artifacts it uses', async () => {
    const { cookie } = await h.tenant();
    const res = await h.get('/api/adapters/integration-types', cookie);
    expect(res.status).toBe(200);
    const types = integrationTypeSchema.array().parse(await res.json());
    expect(types.map((t) => t.id)).toEqual(['shdr', 'agent', 'mqtt', 'gateway', 'manual']);
    expect(types.find((t) => t.id === 'shdr')).toMatchObject({ source: ['Address', 'Port'] });
    expect(types.find((t) => t.id === 'manual')?.artifacts).toEqual([]);
  });

  it('answers a Devices.xml and an SHDR key sheet that the adapter import matches exactly to the adapter', async () => {
    const { company, cookie } = await h.tenant();
    const adapterId = await millAdapter(company.id);
    const xml = await h.get(`/api/adapters/${adapterId}/artifacts/devices.xml`, cookie);
    expect(xml.status).toBe(200);
    expect(xml.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(xml.headers.get('content-disposition')).toBe('attachment; filename="Haas-Co-VF-2-devices.xml"');
    const devicesXml = await xml.text();
    // Names escaped, every field a DataItem of its component, conditions and samples in their category.
    expect(devicesXml).toContain('name="Haas &amp; Co &lt;VF-2&gt;"');
    expect(devicesXml).toMatch(/<Rotary id="[^"]+" name="C">/);
    expect(devicesXml).toMatch(/name="system" type="SYSTEM" category="CONDITION"/);
    expect(devicesXml).toMatch(/name="Sspeed" type="SPINDLE_SPEED" category="SAMPLE"/);
    const sheet = await h.get(`/api/adapters/${adapterId}/artifacts/shdr-keys.txt`, cookie);
    expect(sheet.status).toBe(200);
    const sample = await sheet.text();
    expect(sample).toContain('|exec|ACTIVE\n');
    expect(sample).toContain('|system|NORMAL||||\n');

    const root = await aUser(h.t.db, company, { isRoot: true });
    const rootCookie = await h.login(root.email, root.password);
    const imported = await h.send('POST', '/api/adapters/import', rootCookie, { devicesXml, sample });
    expect(imported.status, await imported.clone().text()).toBe(200);
    const answer = (await imported.json()) as Record<string, unknown>;
    expect(answer).toMatchObject({
      outcome: 'exact',
      adapter: { id: adapterId },
      unmatchedItems: [],
      extraneousItems: [],
    });
  });

  it('refuses an unknown artifact (400), another company’s adapter (404) and a manager (403)', async () => {
    const { company, cookie } = await h.tenant();
    const adapterId = await millAdapter(company.id);
    const bad = await h.get(`/api/adapters/${adapterId}/artifacts/config.ini`, cookie);
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toBe('The artifact must be one of devices.xml, shdr-keys.txt');
    const them = await h.tenant();
    expect((await h.get(`/api/adapters/${adapterId}/artifacts/devices.xml`, them.cookie)).status).toBe(404);
    const manager = await loginAs(h, company, 'manager');
    expect((await h.get(`/api/adapters/${adapterId}/artifacts/devices.xml`, manager)).status).toBe(403);
    expect((await h.get('/api/adapters/integration-types', manager)).status).toBe(403);
  });
});

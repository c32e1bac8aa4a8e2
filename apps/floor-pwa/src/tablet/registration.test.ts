import { describe, expect, it, vi } from 'vitest';
import {
  pushAction,
  activate,
  deviceSerial,
  formatRemaining,
  parseTabletAuthMessage,
  remainingPercent,
  stepIndex,
  tabletAuthUrl,
} from './registration';

describe('tablet registration helpers', () => {
  it('keeps one serial number per device', () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    };
    const first = deviceSerial(storage);
    expect(first).toMatch(/^web-/);
    expect(deviceSerial(storage)).toBe(first);
  });

  it('counts the code down', () => {
    expect(remainingPercent(0, 300_000, 300_000)).toBe(100);
    expect(remainingPercent(150_000, 300_000, 300_000)).toBe(50);
    expect(remainingPercent(400_000, 300_000, 300_000)).toBe(0);
    expect(formatRemaining(299_950)).toBe('5:00');
    expect(formatRemaining(61_000)).toBe('1:01');
    expect(formatRemaining(-5)).toBe('0:00');
  });

  it('parses socket messages and orders the steps', () => {
    expect(parseTabletAuthMessage('{"event":"associated","tablet_id":"t"}')).toEqual({
      event: 'associated',
      tablet_id: 't',
    });
    expect(parseTabletAuthMessage('nope')).toBeNull();
    expect(stepIndex('code')).toBeLessThan(stepIndex('associated'));
    expect(stepIndex('registered')).toBeLessThan(stepIndex('activated'));
    expect(tabletAuthUrl({ protocol: 'https:', host: 'shop:8443' })).toBe('wss://shop:8443/tablet-auth');
  });

  it("acts on the admin's refresh and restart pushes, and on nothing else", () => {
    expect(pushAction(JSON.stringify({ event: 'refresh' }))).toBe('reload');
    expect(pushAction(JSON.stringify({ event: 'restart' }))).toBe('restart');
    expect(pushAction(JSON.stringify({ event: 'associated', tablet_id: 't' }))).toBeNull();
    expect(pushAction('not json')).toBeNull();
    expect(pushAction(new ArrayBuffer(2))).toBeNull();
  });

  it('activates with the device token as a bearer', async () => {
    const fetchImpl = vi.fn(
      async () =>
        new Response(JSON.stringify({ redirectTo: '/m-1', tablet: { id: 't-9', machine_id: 'm-1' } }), {
          status: 200,
        }),
    );
    expect(await activate('ttb_x', fetchImpl as unknown as typeof fetch)).toEqual({
      redirectTo: '/m-1',
      device: { tabletId: 't-9', machineId: 'm-1', remoteIdentifier: null },
    });
    expect(fetchImpl).toHaveBeenCalledWith(
      '/tablet/activate',
      expect.objectContaining({
        method: 'POST',
        headers: expect.objectContaining({ authorization: 'Bearer ttb_x' }),
      }),
    );
    const refused = vi.fn(async () => new Response('{}', { status: 401 }));
    await expect(activate('bad', refused as unknown as typeof fetch)).rejects.toThrow('401');
  });
});

import { describe, expect, it } from 'vitest';
import { OFFLINE_TOAST_CLOSE_MS, offlineToast } from './offline-toast';

describe('offlineToast', () => {
  it('stays open while offline with the spec text', () => {
    expect(offlineToast(false, false)).toMatchObject({
      tone: 'warning',
      autoCloseMs: null,
      message: 'Network offline. Please check your Internet connection.',
    });
  });

  it('says Reconnected! and closes 2 s after reconnect', () => {
    expect(offlineToast(true, true)).toMatchObject({
      id: 'offline',
      message: 'Reconnected!',
      autoCloseMs: OFFLINE_TOAST_CLOSE_MS,
    });
    expect(OFFLINE_TOAST_CLOSE_MS).toBe(2000);
  });

  it('says nothing when the page starts online', () => {
    expect(offlineToast(true, false)).toBeNull();
  });
});

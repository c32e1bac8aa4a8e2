import type { SyncCommandType } from '@takt/domain';
import { t } from '@takt/ui';
import { describe, expect, it } from 'vitest';
import { errorTitleKey } from './errors';

describe('errorTitleKey (live-operations §8)', () => {
  it.each<[SyncCommandType, string]>([
    ['start_job', 'Job could not be started'],
    ['reject_part', 'Parts could not be rejected.'],
    ['part_correction', 'Parts could not be rejected.'],
    ['categorize_downtime', 'Downtime reason could not be saved.'],
    ['split_downtime', 'Downtime reason could not be saved.'],
    ['setup_stage', 'Something went wrong'],
    ['start_production', 'Something went wrong'],
    ['stop_job', 'Stop Job'],
    ['operator_login', 'Operator Login'],
  ])('%s → %s', (type, text) => {
    expect(t(errorTitleKey(type))).toBe(text);
  });
});

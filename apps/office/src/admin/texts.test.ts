import { describe, expect, it } from 'vitest';
import { t } from '@takt/ui';

// The spec's texts the administration screens show, verbatim (reports-admin §5, §8; live-operations §2, §8).
describe('administration texts in the catalogue', () => {
  it.each([
    ['admin.missingField', 'Missing required field: '],
    ['admin.stages.failed', 'Unable to submit'],
    ['admin.reasons.failed', 'Downtime reason could not be saved.'],
    ['admin.reasons.empty', 'No downtime reasons configured.'],
    ['admin.rejects.empty', 'No reject reasons configured.'],
    ['admin.operators.empty', 'No Operators configured.'],
    ['admin.stages.empty', 'No setup stages configured.'],
    ['admin.rejects.behavior.scrap', 'Scrap'],
    ['admin.rejects.behavior.nonconform', 'Non-Conforming'],
    ['admin.confirm', 'Are you sure?'],
  ] as const)('%s', (key, text) => {
    expect(t(key)).toBe(text);
  });
});

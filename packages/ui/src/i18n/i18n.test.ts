import { describe, expect, it } from 'vitest';
import { createTranslator, interpolate, t } from './index';

describe('interpolate', () => {
  it.each([
    ['plain', undefined, 'plain'],
    ['Workcenter {name}', { name: 'Mazak 1' }, 'Workcenter Mazak 1'],
    ['{count} machines', { count: 12 }, '12 machines'],
    ['{a} and {missing}', { a: 'x' }, 'x and {missing}'],
  ])('%s', (template, params, expected) => {
    expect(interpolate(template, params)).toBe(expected);
  });
});

describe('t', () => {
  it('reads the English catalogue', () => {
    expect(t('login.submit')).toBe('Log in');
    expect(t('workcenter.label', { name: 'Lathe' })).toBe('Workcenter Lathe');
  });

  it('falls back to English for keys a locale lacks', () => {
    const de = createTranslator({ 'login.submit': 'Anmelden' });
    expect(de('login.submit')).toBe('Anmelden');
    expect(de('login.email')).toBe('Email');
  });
});

// The spec's texts the floor and office show, verbatim (live-operations §2, §4, §8).
describe('spec texts in the catalogue', () => {
  it.each([
    ['offline.toast', 'Network offline. Please check your Internet connection.'],
    ['offline.reconnecting', 'Reconnecting...'],
    ['offline.reconnected', 'Reconnected!'],
    ['offline.failed', 'Failed to reconnect'],
    ['overlay.confirm', 'Are you sure?'],
    ['startJob.noStages', 'No setup stages configured.'],
    ['startJob.emptySearch', 'No Operations that match your search.'],
    ['startJob.emptyRange', 'No Operations in this range.'],
    ['startJob.emptyRangeSearch', 'No Operations in this range that match your search.'],
    ['startJob.empty', 'No operations found.'],
    ['startJob.inSetup', 'Start Job in Setup'],
    ['startJob.inProduction', 'Start in Production'],
    ['startJob.failed', 'Job could not be started'],
    ['downtime.title', 'Categorize Downtime'],
    ['downtime.empty', 'No downtime during this period.'],
    ['downtime.noReasons', 'No downtime reasons configured.'],
    ['downtime.reasonFailed', 'Downtime reason could not be saved.'],
    ['downtime.saveFailed', 'Annotation could not be saved'],
    ['reject.noReasons', 'No reject reasons configured.'],
    ['reject.failed', 'Parts could not be rejected.'],
    ['operator.none', 'No Operators configured.'],
    ['setup.somethingWrong', 'Something went wrong'],
    ['setup.adjustFailed', 'We ran into an issue, please try again.'],
    ['setup.removalFailed', "There was an error, please re-submit the number of parts you'd like to keep."],
    ['common.requestError', 'An error occurred with your request.'],
  ] as const)('%s', (key, text) => {
    expect(t(key)).toBe(text);
  });

  it('fills in the kept parts of the setup failure', () => {
    expect(t('setup.endFailed', { n: 3 })).toBe(
      'We fixed the part count and kept 3 parts, but there was an error going into production. Please try again.',
    );
    expect(t('version.reloadingIn', { s: 30 })).toBe('Reloading in 30...');
  });
});

// reports-admin §2, §8: the report texts, verbatim, in the same catalogue.
describe('report texts in the catalogue', () => {
  it.each([
    ['reports.requestError', 'There was an error with your request. Please try again.'],
    ['oee.empty', 'No OEE data in this range.'],
    ['oee.returnToAll', 'Return to OEE Report for All Machines'],
    [
      'oee.noStandards',
      'One or more operations associated with this metric do not have operation standards applied. This metric may not be accurate.',
    ],
    ['oee.chart.components', 'All OEE Components'],
    ['oee.chart.compare', 'Compare OEE, OOE and TEEP'],
    ['oee.chart.byShift', 'Compare OEE, Availability, Performance or Quality by Shift'],
    ['utilization.empty', 'No utilization data in this range.'],
  ] as const)('%s', (key, text) => {
    expect(t(key)).toBe(text);
  });

  it('fills in the report title', () => {
    expect(t('oee.title', { name: 'All Machines' })).toBe('OEE Report for All Machines');
  });
});

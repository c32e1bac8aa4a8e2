import type { Migration } from 'kysely';
import * as m0001 from './2026-11-22-0001-initial';
import * as m0002 from './2026-11-22-0002-live-operations';
import * as m0003 from './2026-11-22-0003-derived';
import * as m0004 from './2026-11-22-0004-edge';
import * as m0005 from './2026-11-22-0005-rollup-dirty';
import * as m0006 from './2026-11-22-0006-tablets';
import * as m0007 from './2026-11-22-0007-mail-exports';
import * as m0008 from './2026-11-24-0008-link-tokens';
import * as m0009 from './2026-11-24-0009-sync-command-keys';
import * as m0010 from './2026-11-24-0010-adapter-types';
import * as m0011 from './2026-11-25-0011-rollup-days';
import * as m0012 from './2026-11-26-0012-accounts';
import * as m0013 from './2026-11-26-0013-rollup-weeks';
import * as m0014 from './2026-11-26-0014-machine-group-reasons';
import * as m0015 from './2026-11-26-0015-invites';
import * as m0016 from './2026-11-26-0016-machine-panels';
import * as m0017 from './2026-11-26-0017-machine-notifications';
import * as m0018 from './2026-11-26-0018-job-run-shifts';
import * as m0019 from './2026-11-26-0019-internal-admin';
import * as m0022 from './2026-11-26-0022-login-codes';
import * as m0023 from './2026-11-28-0023-ingest-leases';
import * as m0024 from './2026-11-28-0024-lease-handover';
import * as m0025 from './2026-11-29-0025-rate-limits';
import * as m0028 from './2026-11-29-0028-gateway-sequence-gaps';
import * as m0029 from './2026-11-29-0029-standard-run-time';
import * as m0030 from './2026-11-29-0030-monitored-life';
import * as m0032 from './2026-11-29-0032-setup-dirty';
import * as m0037 from './2026-11-29-0037-manycycles-credit';
import * as m0040 from './2026-11-29-0040-company-settings';
import * as m0042 from './2026-11-29-0042-billing-and-benchmarking';
import * as m0043 from './2026-11-29-0043-user-preferences';
import * as m0044 from './2026-11-29-0044-compact-observations';
import * as m0045 from './2026-11-29-0045-raw-retention';
import * as m0046 from './2026-11-29-0046-machine-simulations';
import * as m0047 from './2026-11-29-0047-derived-end-index';
import * as m0049 from './2026-11-29-0049-hot-live-rows';
import * as m0050 from './2026-11-29-0050-job-run-indexes';
import * as m0051 from './2026-11-29-0051-rollup-weeks-computed';
import * as m0052 from './2026-11-29-0052-kept-override-steps';
import * as m0057 from './2026-11-29-0057-report-config-generation';
import * as m0059 from './2026-11-29-0059-program-rows';
import * as m0061 from './2026-11-30-0061-flag-rows';
import * as m0062 from './2026-11-30-0062-state-rows';
import * as m0063 from './2026-11-30-0063-narrow-end-indexes';
import * as m0064 from './2026-11-30-0064-cycle-rows';
import * as m0065 from './2026-11-30-0065-observation-packs';
import * as m0066 from './2026-11-30-0066-rollups-by-company';
import * as m0067 from './2026-11-30-0067-rollup-downtime-figures';
import * as m0068 from './2026-11-30-0068-rollup-downtime-recompute';
import * as m0070 from './2026-11-30-0070-program-packs';
import * as m0071 from './2026-11-30-0071-live-generations';
import * as m0072 from './2026-12-01-0072-live-generation-facts';
import * as m0073 from './2026-12-01-0073-rollup-week-packs';
import * as m0074 from './2026-12-02-0074-live-generation-facts-rows';

// Listed explicitly (not read from disk) so bundling and tests see the same set, in order.
export const migrations: Record<string, Migration> = {
  '2026-11-22-0001-initial': m0001,
  '2026-11-22-0002-live-operations': m0002,
  '2026-11-22-0003-derived': m0003,
  '2026-11-22-0004-edge': m0004,
  '2026-11-22-0005-rollup-dirty': m0005,
  '2026-11-22-0006-tablets': m0006,
  '2026-11-22-0007-mail-exports': m0007,
  '2026-11-24-0008-link-tokens': m0008,
  '2026-11-24-0009-sync-command-keys': m0009,
  '2026-11-24-0010-adapter-types': m0010,
  '2026-11-25-0011-rollup-days': m0011,
  '2026-11-26-0012-accounts': m0012,
  '2026-11-26-0013-rollup-weeks': m0013,
  '2026-11-26-0014-machine-group-reasons': m0014,
  '2026-11-26-0015-invites': m0015,
  '2026-11-26-0016-machine-panels': m0016,
  '2026-11-26-0017-machine-notifications': m0017,
  '2026-11-26-0018-job-run-shifts': m0018,
  '2026-11-26-0019-internal-admin': m0019,
  '2026-11-26-0022-login-codes': m0022,
  '2026-11-28-0023-ingest-leases': m0023,
  '2026-11-28-0024-lease-handover': m0024,
  '2026-11-29-0025-rate-limits': m0025,
  '2026-11-29-0028-gateway-sequence-gaps': m0028,
  '2026-11-29-0029-standard-run-time': m0029,
  '2026-11-29-0030-monitored-life': m0030,
  '2026-11-29-0032-setup-dirty': m0032,
  '2026-11-29-0037-manycycles-credit': m0037,
  '2026-11-29-0040-company-settings': m0040,
  '2026-11-29-0042-billing-and-benchmarking': m0042,
  '2026-11-29-0043-user-preferences': m0043,
  '2026-11-29-0044-compact-observations': m0044,
  '2026-11-29-0045-raw-retention': m0045,
  '2026-11-29-0046-machine-simulations': m0046,
  '2026-11-29-0047-derived-end-index': m0047,
  '2026-11-29-0049-hot-live-rows': m0049,
  '2026-11-29-0050-job-run-indexes': m0050,
  '2026-11-29-0051-rollup-weeks-computed': m0051,
  '2026-11-29-0052-kept-override-steps': m0052,
  '2026-11-29-0057-report-config-generation': m0057,
  '2026-11-29-0059-program-rows': m0059,
  '2026-11-30-0061-flag-rows': m0061,
  '2026-11-30-0062-state-rows': m0062,
  '2026-11-30-0063-narrow-end-indexes': m0063,
  '2026-11-30-0064-cycle-rows': m0064,
  '2026-11-30-0065-observation-packs': m0065,
  '2026-11-30-0066-rollups-by-company': m0066,
  '2026-11-30-0067-rollup-downtime-figures': m0067,
  '2026-11-30-0068-rollup-downtime-recompute': m0068,
  '2026-11-30-0070-program-packs': m0070,
  '2026-11-30-0071-live-generations': m0071,
  '2026-12-01-0072-live-generation-facts': m0072,
  '2026-12-01-0073-rollup-week-packs': m0073,
  '2026-12-02-0074-live-generation-facts-rows': m0074,
};

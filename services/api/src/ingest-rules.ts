import type { Kysely } from 'kysely';
import type { ZodType } from 'zod';
import type { Database } from '@takt/db';
import type {
  AdapterImport,
  DataItem,
  Device,
  ExistingAdapter,
  KeyKinds,
  PushBatch,
  PushDecision,
  SequenceGap,
  PushValidation,
  SourcePolicy,
} from '@takt/domain';

/**
 * The ingest rules the API applies itself: a gateway push is parsed, deduplicated and keyed as the ingest
 * worker reads the same lines (ARCHITECTURE.md "Ingest contract"), and an adapter import maps a sample
 * through the same Devices.xml reading. The API does not import ingest, not even its types: this port is
 * written in the contract types of packages/domain, and only main.ts (the composition root) and the test
 * harness pass `apiRules` of @takt/ingest in as Deps.ingest, where the compiler checks that it fits.
 */
export interface IngestRules {
  validatePushBatch(body: unknown): PushValidation;
  /** The push body's zod schema validatePushBatch applies, for the OpenAPI document (decision 1045). */
  pushBatchSchema: ZodType;
  decidePush(
    batch: PushBatch,
    storedSeq: number | null,
    receivedAt: number,
    keyKinds?: (machineRef: string) => KeyKinds | undefined,
    gaps?: readonly SequenceGap[],
  ): PushDecision;
  pushKeyKinds(
    db: Kysely<Database>,
    targets: ReadonlyMap<string, { machineId: string }>,
  ): Promise<(machineRef: string) => KeyKinds | undefined>;
  importAdapter(
    dataItems: readonly DataItem[],
    sample: string,
    adapters: readonly ExistingAdapter[],
  ): AdapterImport;
  parseDevicesXml(xml: string): Device[];
  pickDevice(devices: readonly Device[], sample: string): Device | null;
  /**
   * Why a source may not point at `host:port` under `policy`, null when it may (decision 0985), and the addresses
   * the host resolves to now (none when it does not resolve).
   */
  sourceTargetProblem(
    target: { host: string; port: number },
    policy: SourcePolicy,
  ): Promise<{ problem: string | null; addresses: string[] }>;
  /** Where a source connects, normalised (lower-case host, default ports), to compare addresses (decision 0986). */
  sourceEndpoint(source: {
    kind: string;
    host?: string | null;
    port?: number | null;
    baseUrl?: string | null;
  }): { host: string; port: number } | null;
}

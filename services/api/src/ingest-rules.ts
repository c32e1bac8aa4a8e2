import type { apiRules } from '@takt/ingest';

/**
 * The ingest rules the API applies itself: a gateway push is parsed, deduplicated and keyed as the ingest
 * worker reads the same lines (ARCHITECTURE.md "Ingest contract"), and an adapter import maps a sample
 * through the same Devices.xml reading. The API does not import ingest: main.ts (the composition root)
 * and the test harness pass `apiRules` of @takt/ingest in as Deps.ingest, so the dependency stays one way.
 */
export type IngestRules = typeof apiRules;

// The ingest service, by feature:
// - sources/  how machine data arrives: SHDR (parser, client, transport), MTConnect agent (client, streams,
//             transport), MQTT (payloads, subscriber, transport), gateway pushes (the push route's rules, the
//             inbox transport) and MTConnect device descriptions (Devices.xml, adapter import).
// - worker/   startIngest: links of sources composed with the batch writer, the per-machine pipeline, the
//             late-data rebuild, the link checks and the rollup worker.
// - demo/     the simulated plant (TAKT_DEMO=1).
// - replay/   `npm run replay`: a recorded SHDR log fed into a machine.
// - testing/  harnesses the tests share (fake adapter, agent and broker, the crash worker).
export * from './sources/shdr/shdr';
export * from './sources/shdr/shdr-client';
export * from './demo/simulator';
export * from './demo/demo-history';
export { DEMO_PLANT_RATES, demoPlantProfile } from './demo/demo-script';
export type { DemoProgram } from './demo/demo-script';
export * from './worker/ingest';
export { feedStored, storedToRaw } from './worker/rebuild';
export * from './worker/pipeline';
export * from './worker/store';
export * from './sources/devices/devices';
export { demoAdapterFields } from './demo/demo-adapter';
export * from './sources/agent/agent-streams';
export * from './sources/agent/agent-client';
export * from './sources/mqtt/mqtt-payload';
export * from './sources/mqtt/mqtt';
export * from './sources/devices/adapter-import';
export * from './sources/gateway/push';
export * from './replay/replay';

import { importAdapter, pickDevice } from './sources/devices/adapter-import';
import { parseDevicesXml } from './sources/devices/devices';
import { decidePush, pushBatchSchema, validatePushBatch } from './sources/gateway/push';
import { pushKeyKinds } from './worker/store';
import { sourceEndpoint, sourceTargetProblem } from './sources/address-policy';

/**
 * The ingest rules the API applies itself (gateway push, adapter import), handed to it by its composition
 * root so the API never imports ingest (decision 0113).
 */
export const apiRules = {
  validatePushBatch,
  decidePush,
  pushKeyKinds,
  importAdapter,
  pushBatchSchema,
  parseDevicesXml,
  pickDevice,
  sourceTargetProblem,
  sourceEndpoint,
};

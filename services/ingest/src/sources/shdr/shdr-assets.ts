// SHDR asset commands (`@ASSET@|…` and friends) → an asset record and its trace observation.
import type { AssetOp, AssetRecord, ShdrData, ShdrObservation as Observation } from '@takt/domain';

const ASSET_COMMANDS: Readonly<Record<string, AssetOp>> = {
  '@ASSET@': 'add',
  '@UPDATE_ASSET@': 'update',
  '@REMOVE_ASSET@': 'remove',
  '@REMOVE_ALL_ASSETS@': 'remove_all',
};

/**
 * `@ASSET@|id|type|<xml…>` (the xml may hold `|` and, after splitShdrStream, newlines),
 * `@UPDATE_ASSET@|id|key|value…`, `@REMOVE_ASSET@|id`, `@REMOVE_ALL_ASSETS@|type`.
 * Reported both as an `assets` record and as one observation of kind 'asset' (key = the command,
 * value = the asset id) so the stream keeps a trace of asset changes like the agent's AssetChanged.
 */
export function parseAssetCommand(rest: string, ts: number): ShdrData | null {
  const first = rest.indexOf('|');
  const command = (first < 0 ? rest : rest.slice(0, first)).trim();
  const op = ASSET_COMMANDS[command];
  if (!op) return null;
  const args = first < 0 ? '' : rest.slice(first + 1);
  const record = assetRecord(op, args);
  if (!record) return { type: 'data', ts, observations: [], rejected: 1 };
  const observation: Observation = { ts, key: command, value: record.assetId, kind: 'asset' };
  return { type: 'data', ts, observations: [observation], rejected: 0, assets: [record] };
}

function assetRecord(op: AssetOp, args: string): AssetRecord | null {
  const [id = '', second = ''] = args.split('|', 2).map((s) => s.trim());
  if (id === '') return null;
  if (op === 'remove') return { op, assetId: id, assetType: '', body: '' };
  if (op === 'remove_all') return { op, assetId: id, assetType: id, body: '' };
  const afterId = restAfterBar(args);
  if (op === 'update')
    return afterId === null ? null : { op, assetId: id, assetType: '', body: afterId.trim() };
  const body = afterId === null ? null : restAfterBar(afterId);
  return second === '' || body === null ? null : { op, assetId: id, assetType: second, body: body.trim() };
}

function restAfterBar(text: string): string | null {
  const bar = text.indexOf('|');
  return bar < 0 ? null : text.slice(bar + 1);
}

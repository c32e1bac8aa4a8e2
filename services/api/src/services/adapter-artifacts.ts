import { z } from 'zod';
import type { CompanyScope } from '@takt/db';
import type { Adapter } from '@takt/domain';
import { adapterOf } from './adapters';

// Integration types and their artifacts (reports-admin §7 "Adapters: … integration types and artifacts";
// decision 1108): the ways a machine's data reaches Takt, and for an adapter the files an integrator needs to
// set one up: a Devices.xml describing its fields (for an MTConnect agent, and the adapter import reads it
// back) and an SHDR key sheet, the lines the adapter is expected to send.

export const ARTIFACTS = {
  'devices.xml': { title: 'MTConnect Devices.xml of the adapter’s fields', contentType: 'application/xml' },
  'shdr-keys.txt': { title: 'SHDR key sheet: one sample line per field', contentType: 'text/plain' },
} as const;
export type ArtifactName = keyof typeof ARTIFACTS;
export const ARTIFACT_NAMES = Object.keys(ARTIFACTS) as ArtifactName[];

export const integrationTypeSchema = z.object({
  id: z.enum(['shdr', 'agent', 'mqtt', 'gateway', 'manual']),
  name: z.string(),
  description: z.string(),
  /** What a source of this type needs in the machine form (none: no source). */
  source: z.array(z.string()),
  /** The adapter's artifacts this type uses (GET /api/adapters/{id}/artifacts/{name}). */
  artifacts: z.array(z.enum(ARTIFACT_NAMES as [ArtifactName, ...ArtifactName[]])),
});
export type IntegrationTypeInfo = z.infer<typeof integrationTypeSchema>;

/** The ways data arrives (decision 0923's integration types), in the machine form's order. */
export const INTEGRATION_TYPE_LIST: readonly IntegrationTypeInfo[] = [
  {
    id: 'shdr',
    name: 'SHDR adapter',
    description: 'Takt dials the adapter’s TCP port and reads its SHDR lines, with the * PING heartbeat.',
    source: ['Address', 'Port'],
    artifacts: ['shdr-keys.txt', 'devices.xml'],
  },
  {
    id: 'agent',
    name: 'MTConnect agent',
    description: 'Takt polls the agent’s /probe, /current and /sample, keeping the sequence with the data.',
    source: ['Agent URL', 'Device'],
    artifacts: ['devices.xml'],
  },
  {
    id: 'mqtt',
    name: 'MQTT',
    description: 'Takt subscribes to takt/<company>/<machine>/shdr, /json and /status on the broker.',
    source: ['Machine reference'],
    artifacts: ['shdr-keys.txt'],
  },
  {
    id: 'gateway',
    name: 'Edge gateway',
    description: 'A gateway on the shop floor pushes the machine’s lines with its token, exactly once.',
    source: ['Edge device', 'Machine reference'],
    artifacts: ['shdr-keys.txt', 'devices.xml'],
  },
  {
    id: 'manual',
    name: 'Manual work center',
    description: 'No machine data: the floor app records states, parts and jobs.',
    source: [],
    artifacts: [],
  },
];

const xmlText = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!,
  );

/** An MTConnect id: letters, digits, _ . - only, not starting with a digit. */
const xmlId = (s: string) => {
  const id = s.replace(/[^A-Za-z0-9_.-]/g, '_');
  return /^[A-Za-z_]/.test(id) ? id : `_${id}`;
};

/** MTConnect's CONDITION types of the controller and axes; SAMPLE types are measured values. */
const CONDITION_TYPES = new Set([
  'SYSTEM',
  'LOGIC_PROGRAM',
  'MOTION_PROGRAM',
  'HARDWARE',
  'COMMUNICATIONS',
  'DATA_RANGE',
  'ACTUATOR',
]);
const SAMPLE_TYPES = new Set([
  'SPINDLE_SPEED',
  'ROTARY_VELOCITY',
  'POSITION',
  'PATH_POSITION',
  'PATH_FEEDRATE',
  'LOAD',
  'TEMPERATURE',
  'ANGLE',
  'AXIS_FEEDRATE',
  'ACCUMULATED_TIME',
  'PRESSURE',
  'VOLTAGE',
  'AMPERAGE',
  'WATTAGE',
]);
const categoryOf = (type: string) => {
  const t = type.toUpperCase();
  return CONDITION_TYPES.has(t) ? 'CONDITION' : SAMPLE_TYPES.has(t) ? 'SAMPLE' : 'EVENT';
};

/**
 * A Devices.xml (MTConnectDevices 1.3) with one device named after the adapter, a component per
 * componentType/componentName, and each field a DataItem whose name is the SHDR key.
 */
export function devicesXml(adapter: Adapter): string {
  const components = new Map<string, Adapter['fields']>();
  for (const f of adapter.fields) {
    const key = `${f.componentType}\n${f.componentName}`;
    components.set(key, [...(components.get(key) ?? []), f]);
  }
  const device = xmlId(adapter.name);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<MTConnectDevices xmlns="urn:mtconnect.org:MTConnectDevices:1.3">',
    `  <Header creationTime="1970-01-01T00:00:00Z" sender="takt" instanceId="1" version="1.3" assetBufferSize="0" assetCount="0" bufferSize="0"/>`,
    '  <Devices>',
    `    <Device id="${device}" name="${xmlText(adapter.name)}" uuid="${xmlText(adapter.id)}">`,
    '      <Components>',
  ];
  for (const fields of components.values()) {
    const first = fields[0]!;
    lines.push(
      `        <${xmlId(first.componentType)} id="${device}.${xmlId(first.componentName)}" name="${xmlText(first.componentName)}">`,
      '          <DataItems>',
    );
    for (const f of fields) {
      const sub = f.dataItemSubtype ? ` subType="${xmlText(f.dataItemSubtype)}"` : '';
      const type = f.dataItemType || 'MESSAGE';
      lines.push(
        `            <DataItem id="${device}.${xmlId(f.name)}" name="${xmlText(f.name)}" type="${xmlText(type)}"${sub} category="${categoryOf(type)}"/>`,
      );
    }
    lines.push('          </DataItems>', `        </${xmlId(first.componentType)}>`);
  }
  lines.push('      </Components>', '    </Device>', '  </Devices>', '</MTConnectDevices>', '');
  return lines.join('\n');
}

const SAMPLE_VALUES: Record<string, string> = {
  EXECUTION: 'ACTIVE',
  CONTROLLER_MODE: 'AUTOMATIC',
  AVAILABILITY: 'AVAILABLE',
  PART_COUNT: '1',
  PROGRAM: 'O1234',
  EMERGENCY_STOP: 'ARMED',
};

/**
 * One SHDR line per field (ts|key|value) with an example value of its type; conditions in their six-field form.
 */
export function shdrKeySheet(adapter: Adapter): string {
  const ts = '2026-01-01T00:00:00.000Z';
  // SHDR has no comments: the sheet is lines only, so it also serves as the adapter import's sample.
  const lines: string[] = [];
  for (const f of adapter.fields) {
    const type = (f.dataItemType || '').toUpperCase();
    if (categoryOf(type) === 'CONDITION') lines.push(`${ts}|${f.name}|NORMAL||||`);
    else
      lines.push(
        `${ts}|${f.name}|${SAMPLE_VALUES[type] ?? (categoryOf(type) === 'SAMPLE' ? '0' : 'UNAVAILABLE')}`,
      );
  }
  return `${lines.join('\n')}\n`;
}

/** The artifact's file: its text, content type and a file name from the adapter's name. */
export async function adapterArtifact(
  scope: CompanyScope,
  adapterId: string,
  name: ArtifactName,
): Promise<{ text: string; contentType: string; fileName: string }> {
  const adapter = await adapterOf(scope, adapterId);
  const text = name === 'devices.xml' ? devicesXml(adapter) : shdrKeySheet(adapter);
  const base = adapter.name.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^-+|-+$/g, '') || 'adapter';
  return { text, contentType: ARTIFACTS[name].contentType, fileName: `${base}-${name}` };
}

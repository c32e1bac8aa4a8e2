import type { CompanyScope } from '../db/scope';
import { machineSourceRow } from './machine-sources';

export interface AdapterFieldInput {
  name: string;
  dataItemType: string;
  dataItemSubtype?: string | null;
  componentName: string;
  componentType: string;
}

export async function createAdapter(
  scope: CompanyScope,
  input: { name: string; notes?: string | null; className?: string; fields: AdapterFieldInput[] },
  now: number,
): Promise<string> {
  const id = crypto.randomUUID();
  await scope.transaction(async (tx) => {
    await tx
      .insertInto('adapters', {
        id,
        name: input.name,
        notes: input.notes ?? null,
        class: input.className ?? 'MTConnect',
        created_at: now,
      })
      .execute();
    if (input.fields.length > 0) {
      await tx
        .insertInto(
          'adapter_fields',
          input.fields.map((f) => ({
            id: crypto.randomUUID(),
            adapter_id: id,
            name: f.name,
            data_item_type: f.dataItemType,
            data_item_subtype: f.dataItemSubtype ?? null,
            component_name: f.componentName,
            component_type: f.componentType,
          })),
        )
        .execute();
    }
  });
  return id;
}

export async function createShdrSource(
  scope: CompanyScope,
  input: { machineId: string; host: string; port: number },
  now: number,
): Promise<string> {
  const row = machineSourceRow({
    machine_id: input.machineId,
    kind: 'shdr',
    host: input.host,
    port: input.port,
    created_at: now,
  });
  await scope.insertInto('machine_sources', row).execute();
  return row.id;
}

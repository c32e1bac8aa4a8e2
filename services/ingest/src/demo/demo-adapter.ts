import { DEMO_DATA_ITEMS } from './simulator';

const COMPONENTS = {
  device: { componentName: 'Device', componentType: 'Device' },
  controller: { componentName: 'controller', componentType: 'Controller' },
  path: { componentName: 'path', componentType: 'Path' },
  spindle: { componentName: 'S', componentType: 'Rotary' },
} as const;

/** The adapter field mapping of the simulated plant (one field per SHDR key the simulator sends). */
export function demoAdapterFields() {
  return Object.entries(DEMO_DATA_ITEMS).map(([name, item]) => ({
    name,
    dataItemType: item.type,
    dataItemSubtype: item.subType ?? null,
    ...COMPONENTS[item.component],
  }));
}

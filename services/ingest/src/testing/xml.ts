// XML the tests serve or import: escaping, and the demo plant's Devices.xml.
import type { DemoDataItem } from '../demo/simulator';
import { DEMO_DATA_ITEMS } from '../demo/simulator';

export function xmlEscape(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[c]};`,
  );
}

function dataItemsXml(deviceId: string, component: DemoDataItem['component'], indent: string): string {
  const items = Object.entries(DEMO_DATA_ITEMS).filter(([, item]) => item.component === component);
  const lines = items.map(([key, item]) => {
    const attrs = [
      `category="${item.category}"`,
      `id="${deviceId}_${key}"`,
      `name="${key}"`,
      `type="${item.type}"`,
    ];
    if (item.subType) attrs.push(`subType="${item.subType}"`);
    if (item.units) attrs.push(`units="${item.units}"`);
    return `${indent}  <DataItem ${attrs.join(' ')}/>`;
  });
  return `${indent}<DataItems>\n${lines.join('\n')}\n${indent}</DataItems>`;
}

/**
 * An MTConnect 2.0 device description of the demo plant: one Device per machine, named as given,
 * whose DataItem names are the adapter keys (so keys resolve by name, like the Okuma's).
 */
export function demoDevicesXml(machineNames: readonly string[]): string {
  const devices = machineNames.map((name, i) => {
    const id = `m${i + 1}`;
    return `    <Device id="${id}" name="${xmlEscape(name)}" uuid="takt-demo-${id}">
      <Description manufacturer="Takt" model="Demo">${xmlEscape(name)}</Description>
${dataItemsXml(id, 'device', '      ')}
      <Components>
        <Controller id="${id}_cont" name="controller">
${dataItemsXml(id, 'controller', '          ')}
          <Components>
            <Path id="${id}_path" name="path">
${dataItemsXml(id, 'path', '              ')}
            </Path>
          </Components>
        </Controller>
        <Axes id="${id}_axes" name="base">
          <Components>
            <Rotary id="${id}_s" name="S" nativeName="S1">
${dataItemsXml(id, 'spindle', '              ')}
            </Rotary>
          </Components>
        </Axes>
      </Components>
    </Device>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<MTConnectDevices xmlns="urn:mtconnect.org:MTConnectDevices:2.0">
  <Header creationTime="2024-01-01T00:00:00Z" sender="takt-demo" instanceId="1" version="2.0.0" bufferSize="131072" assetBufferSize="1024" assetCount="0"/>
  <Devices>
${devices.join('\n')}
  </Devices>
</MTConnectDevices>
`;
}

// The body of POST /api/machines and PUT /api/machines/:id with defaults (STYLE.md: builders with defaults), for
// the machines admin route tests.
export const aMachineSaveBody = (over: Record<string, unknown> = {}) => ({
  name: 'Lathe 7',
  workcenterType: 'machine',
  downtimeFailureDelay: 10,
  autostartBehavior: 'disabled',
  adapterId: null,
  source: { kind: 'shdr', host: '10.0.0.7', port: 7878 },
  ...over,
});

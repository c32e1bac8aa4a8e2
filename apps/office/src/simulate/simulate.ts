import { SIMULATION_LIMITS } from '@takt/domain';
import type { SimulationAction, SimulationState } from '@takt/domain';
import { t } from '@takt/ui';

// The test screen for simulated execution (live-operations §2; decision 1100): its path, the forms' checks as
// you type (the API's bounds, SIMULATION_LIMITS) and the actions they send.

export const simulatePath = (machineId: string) =>
  `/app/admin/machines/${encodeURIComponent(machineId)}/simulate`;
export const SIMULATE_ROUTE = '/app/admin/machines/:id/simulate';
export const simulationApi = (machineId: string) =>
  `/api/machines/${encodeURIComponent(machineId)}/simulation`;

/** A whole number typed in [min, max], or the error in the screen's words. */
export function wholeError(v: string, min: number, max: number): string | null {
  const n = Number(v);
  return v.trim() !== '' && Number.isInteger(n) && n >= min && n <= max
    ? null
    : t('simulate.whole', { min, max });
}

/** Text sent in an SHDR line: 1 to `max` characters, no `|` and no control character (the API refuses them). */
export function lineTextError(v: string, max: number): string | null {
  const s = v.trim();
  // eslint-disable-next-line no-control-regex
  return s.length >= 1 && s.length <= max && !/[|\u0000-\u001f\u007f]/.test(s)
    ? null
    : t('simulate.textRule', { max });
}

export interface SimulateForms {
  program: string;
  parts: string;
  faultMessage: string;
  faultCode: string;
  everySeconds: string;
  minutes: string;
}

export const newForms = (): SimulateForms => ({
  program: '',
  parts: '10',
  faultMessage: '',
  faultCode: '',
  everySeconds: '30',
  minutes: '10',
});

export const partsError = (f: SimulateForms) => wholeError(f.parts, 1, SIMULATION_LIMITS.maxParts);
export const programError = (f: SimulateForms) => lineTextError(f.program, SIMULATION_LIMITS.programLength);
export const faultError = (f: SimulateForms) =>
  lineTextError(f.faultMessage, SIMULATION_LIMITS.faultMessageLength);
export const codeError = (f: SimulateForms) =>
  f.faultCode.trim() === '' ? null : lineTextError(f.faultCode, SIMULATION_LIMITS.nativeCodeLength);
export const cyclesErrors = (f: SimulateForms) => ({
  everySeconds: wholeError(
    f.everySeconds,
    SIMULATION_LIMITS.minCycleSeconds,
    SIMULATION_LIMITS.maxCycleSeconds,
  ),
  minutes: wholeError(f.minutes, 1, SIMULATION_LIMITS.maxCycleMinutes),
});

export const faultAction = (f: SimulateForms): SimulationAction => ({
  type: 'fault',
  message: f.faultMessage.trim(),
  ...(f.faultCode.trim() ? { nativeCode: f.faultCode.trim() } : {}),
});

/** Which item the machine's adapter lacks for a control, or null when the control can send. */
export function missingItem(
  state: SimulationState,
  item: 'program' | 'partCount' | 'condition',
): string | null {
  if (state.keys[item]) return null;
  return t('simulate.notMapped', {
    item: item === 'program' ? 'Program' : item === 'partCount' ? 'Part Count' : 'condition',
  });
}

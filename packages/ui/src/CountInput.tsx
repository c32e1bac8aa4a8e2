import type { InputHTMLAttributes } from 'react';

export type CountInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'inputMode' | 'step'>;

/**
 * A field for a number of parts (rejected, corrected, kept after setup): whole numbers only, with the numeric
 * keypad on touch screens.
 */
export function CountInput(props: CountInputProps) {
  return <input type="number" inputMode="numeric" step={1} {...props} />;
}

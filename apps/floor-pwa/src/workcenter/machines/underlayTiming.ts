// The downtime underlay's delay and auto-expand duration before the company flags were first read on this
// device (decision 0708); afterwards the company's settings (decision 1087). Kept apart from the machine so the
// flags reader does not pull the state machine into the first chunk.
export const UNDERLAY_DELAY_MS = 30_000;
export const UNDERLAY_AUTO_EXPAND_MS = 5 * 60_000;

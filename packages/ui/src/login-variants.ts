// The login page's variants (reports-admin §2 "Login: device button and code option depending on query
// parameters"; decision 0935), read from the page's query string:
//   ?device (or ?device=1) adds "Use this device", and ?machine=<id> binds the registered tablet to a machine;
//   ?code (or ?code=1) offers signing in with a one-time code e-mailed to the user.
// "0" and "false" turn an option off, so a link can say so explicitly.

export interface LoginVariants {
  device: boolean;
  /** The machine a device registered here is bound to; null: unbound. */
  machineId: string | null;
  code: boolean;
}

const on = (query: URLSearchParams, name: string) => {
  const value = query.get(name);
  return value !== null && value !== '0' && value.toLowerCase() !== 'false';
};

export function loginVariantsOf(search: string): LoginVariants {
  const query = new URLSearchParams(search);
  const device = on(query, 'device');
  const machine = query.get('machine')?.trim();
  return { device, machineId: device && machine ? machine : null, code: on(query, 'code') };
}

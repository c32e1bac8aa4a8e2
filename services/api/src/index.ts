export { createApp } from './app';
export type { Deps, AppEnv } from './http/context';
export { parseEnv } from './env';
export type { Env } from './env';
export {
  DEMO_LOGINS,
  DEMO_MANUAL_STATIONS,
  DEMO_PLANT,
  DEMO_COMPANY_NAME,
  ensureDemoCompany,
  ensureAdmin,
} from './provision';
export { API_VERSION } from './version';

import { registerSW } from 'virtual:pwa-register';

/**
 * Registers the Workbox service worker (autoUpdate: a new build takes over and the page reloads).
 * Skipped in dev, where vite-plugin-pwa serves no worker. Registered once the page has loaded and the tablet
 * is idle, so installing it (fetching the precache) does not compete with the first screen;
 * it is still the first visit that installs it, which is what an offline cold start needs.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = () => void registerSW({ immediate: true });
  const whenIdle = () =>
    typeof requestIdleCallback === 'function' ? requestIdleCallback(register, { timeout: 3000 }) : register();
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}

import { registerSW } from 'virtual:pwa-register';

/**
 * Registers the Workbox service worker (autoUpdate: a new build takes over and the page reloads).
 * Skipped in dev, where vite-plugin-pwa serves no worker.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  registerSW({ immediate: true });
}

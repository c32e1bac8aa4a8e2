import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

// Serving contract (services/api): one port serves both apps. Office routes (/app, /machine but not
// /machine/{id}/home/…, /machines, /dashboard/, /reports) get apps/office/dist/index.html; every other non-API path gets this app's
// index.html. Both apps build to base '/', so each keeps its assets in its own folder.
const API_TARGET = 'http://127.0.0.1:8080';
const API_PREFIXES = ['/api', '/login', '/logout', '/timesync', '/tablet/activate'];
const proxy = {
  ...Object.fromEntries(API_PREFIXES.map((p) => [p, { target: API_TARGET }])),
  // WebSockets: the live channel and the tablet registration.
  '/live': { target: API_TARGET, ws: true },
  '/tablet-auth': { target: API_TARGET, ws: true },
};

/** Navigations the service worker must leave to the network: the API and the office app's routes. */
const NAVIGATE_FALLBACK_DENYLIST = [
  /^\/api(\/|$)/,
  /^\/login(\/|$)/,
  /^\/logout(\/|$)/,
  /^\/timesync(\/|$)/,
  /^\/app(\/|$)/,
  // /machine/{id}/home/… is the floor's (the operator host part count, decision 1099): served offline too.
  /^\/machine(\/|$)(?![^/]+\/home(\/|$))/,
  /^\/machines(\/|$)/,
  /^\/dashboard(\/|$)/,
  /^\/reports(\/|$)/,
  /^\/office-assets\//,
];

export default defineConfig({
  base: '/',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: 'dist',
    assetsDir: 'floor-assets',
    emptyOutDir: true,
    rolldownOptions: {
      // @takt/domain builds its zod schemas at module top level next to the constants and pure functions
      // the app uses (DASHBOARD_TYPES beside dashboardResponseSchema). Building a schema has no effect
      // beyond the value, so an unused one is dropped instead of pulling zod into the first chunk (the
      // workcenter route's initial JavaScript is budgeted at 150 KB gzip).
      treeshake: {
        manualPureFunctions: ['z'],
        moduleSideEffects: (id: string) => !/[\\/]packages[\\/]domain[\\/]src[\\/]/.test(id),
      },
    },
  },
  server: { port: 5173, proxy },
  preview: { port: 4173, proxy },
  plugins: [
    VitePWA({
      registerType: 'autoUpdate',
      injectRegister: false, // registered in src/pwa.ts
      manifest: {
        id: '/',
        name: 'Takt Floor',
        short_name: 'Takt',
        description: 'Live machine status, workcenter view and dashboards for the shop floor.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'any',
        theme_color: '#0e1217',
        background_color: '#0e1217',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: NAVIGATE_FALLBACK_DENYLIST,
        cleanupOutdatedCaches: true,
        // The first visit's page is controlled as soon as the worker is active, so a screen loaded later on
        // that visit (an overlay) comes from the precache when the network drops.
        clientsClaim: true,
      },
    }),
  ],
});

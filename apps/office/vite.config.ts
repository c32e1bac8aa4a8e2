import { defineConfig } from 'vite';

// Serving contract (services/api): office routes (/app, /machine, /machines, /dashboard/, /reports) get this
// app's dist/index.html; every other non-API path gets the floor PWA. Both apps use base '/', so this app's
// assets live in their own folder, office-assets/.
const API_TARGET = 'http://127.0.0.1:8080';
const proxy = Object.fromEntries(
  ['/api', '/login', '/logout', '/timesync'].map((p) => [p, { target: API_TARGET }]),
);

export default defineConfig({
  base: '/',
  oxc: { jsx: { runtime: 'automatic' } },
  build: { outDir: 'dist', assetsDir: 'office-assets', emptyOutDir: true },
  server: { port: 5174, proxy },
  preview: { port: 4174, proxy },
});

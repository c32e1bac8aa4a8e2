// Benchmark: the floor app's budgets, printed as figures (no assertions). Not a test.
//   1. initial JavaScript of the workcenter route (/:machineId), gzip, against 150 KB: the entry script of
//      apps/floor-pwa/dist/index.html, its modulepreloads and their static imports (lazy overlays excluded);
//      cross-checked with the JS the browser actually fetched before the view was interactive;
//   2. time to interactive of /:machineId on a cold load (empty cache, no service worker, no IndexedDB) in
//      Chromium with 4× CPU throttling, interactive = the "Reject Part" button enabled; against a blank page
//      measured the same way (budget 1.5 s);
//   3. tap on Save in the Reject Part dialog → the pending result shown (budget 100 ms), online and offline,
//      as ratios against a baseline tap measured in the same page.
// It builds nothing: run `npm run build` first.   npx tsx bench/floor-budgets.ts
// `--profile`: instead, explains one throttled cold load: CPU self time by script and by function (CDP
// Profiler) and the resources fetched before interactive, for finding what is on the critical path.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, startProduct } from '../tests/e2e/harness';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DIST = join(ROOT, 'apps/floor-pwa/dist');
const ADMIN = { email: 'admin@takt.example', password: 'TaktAdmin1' };
const BUDGET = { initialJsKb: 150, ttiMs: 1500, tapMs: 100 };
const CPU_THROTTLE = 4;
const RUNS = { load: 5, tap: 3 };

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const ms = (v: number) => v.toFixed(0);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)]! : NaN;
};
const gz = (buf: Buffer | string) => gzipSync(buf, { level: 9 }).length;

// ---------------------------------------------------------------------------------------------------------
// 1. The static graph of the first load, from the built files.

/** Imports of a built ES module that load with it: `import … from "./x.js"` and `import "./x.js"`. */
function staticImports(code: string): string[] {
  const out: string[] = [];
  const re = /(?:\bfrom|\bimport)\s*["']([^"']+\.js)["']/g;
  for (let m = re.exec(code); m; m = re.exec(code)) out.push(m[1]!);
  return out;
}

function initialJs(): { files: Array<{ file: string; raw: number; gzip: number }>; gzip: number } {
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const roots = [
    ...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g),
    ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
  ].map((m) => m[1]!.replace(/^\//, ''));
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(join(DIST, file), 'utf8');
    const dir = file.slice(0, file.lastIndexOf('/') + 1);
    for (const imp of staticImports(code)) {
      queue.push(imp.startsWith('/') ? imp.slice(1) : join(dir, imp).replace(/\\/g, '/'));
    }
  }
  const files = [...seen].map((file) => {
    const buf = readFileSync(join(DIST, file));
    return { file, raw: buf.length, gzip: gz(buf) };
  });
  return { files, gzip: files.reduce((s, f) => s + f.gzip, 0) };
}

// ---------------------------------------------------------------------------------------------------------
// 2. Cold load to interactive.

/**
 * Installed before any page script: records performance.now() (ms since navigation start) the first time a
 * "Reject Part" button is in the document and enabled.
 */
// A string, not a function: tsx would wrap named inner functions in a helper the page does not have.
const INTERACTIVE_PROBE = `(() => {
  const check = () => {
    if (window.__interactiveAt != null) return;
    for (const b of document.querySelectorAll('button')) {
      if (b.textContent.trim() === 'Reject Part' && !b.disabled && b.getAttribute('aria-disabled') !== 'true') {
        window.__interactiveAt = performance.now();
        return;
      }
    }
  };
  new MutationObserver(check).observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ['disabled', 'aria-disabled'],
  });
  check();
})();`;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time (ms) by script and by function of a CDP CPU profile, the largest first. */
function printProfile(profile: CpuProfile, interactiveAt: number) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const byScript = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  profile.samples.forEach((id, i) => {
    const f = byId.get(id)!.callFrame;
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const script = f.url ? new URL(f.url).pathname : f.functionName || '(anonymous)';
    add(byScript, script, ms);
    add(
      byFunction,
      `${f.functionName || '(anonymous)'} ${script}:${f.lineNumber + 1}:${f.columnNumber + 1}`,
      ms,
    );
  });
  const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
  console.log(`   interactive at ${ms(interactiveAt)} ms; CPU self time by script:`);
  for (const [k, v] of top(byScript, 15)) console.log(`   ${ms(v).padStart(6)} ms  ${k}`);
  console.log('   by function:');
  for (const [k, v] of top(byFunction, 30)) console.log(`   ${ms(v).padStart(6)} ms  ${k}`);
}

async function coldLoad(
  browser: Browser,
  url: string,
  cookies: Awaited<ReturnType<BrowserContext['cookies']>>,
  blank: boolean,
  profile = false,
): Promise<{ ms: number; jsGzip: number }> {
  // A fresh context: empty HTTP cache, no service worker, no IndexedDB; only the session cookie.
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    serviceWorkers: 'block',
  });
  await context.addCookies(cookies);
  const page = await context.newPage();
  await page.addInitScript(INTERACTIVE_PROBE);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_THROTTLE });
  if (blank) {
    await page.route(url, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><html><head><title>blank</title></head><body><button>Reject Part</button></body></html>',
      }),
    );
  }
  if (profile) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  await page.goto(url, { waitUntil: 'commit' });
  const handle = await page
    .waitForFunction(() => (window as unknown as { __interactiveAt?: number }).__interactiveAt, undefined, {
      timeout: 60_000,
      polling: 100,
    })
    .catch(async (e: unknown) => {
      console.log(await page.evaluate(() => document.body.innerText.slice(0, 500)));
      throw e;
    });
  const at = (await handle.jsonValue()) as number;
  if (profile) {
    const { profile: p } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
    printProfile(p, at);
    const timeline = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map(
          (e) =>
            [
              new URL(e.name).pathname,
              Math.round(e.startTime),
              Math.round((e as PerformanceResourceTiming).responseEnd),
            ] as const,
        ),
    );
    console.log('   resources (path, start ms, response end ms):');
    for (const [path, start, end] of timeline)
      console.log(`   ${String(start).padStart(6)} ${String(end).padStart(6)}  ${path}`);
  }
  // The scripts the page had fetched by then, gzipped from the built files they were served from.
  const scripts = await page.evaluate(
    (t) =>
      performance
        .getEntriesByType('resource')
        .filter((e) => e.name.endsWith('.js') && (e as PerformanceResourceTiming).responseEnd <= t)
        .map((e) => new URL(e.name).pathname),
    at,
  );
  const jsGzip = scripts
    .map((p) => join(DIST, p))
    .filter((f) => existsSync(f))
    .reduce((s, f) => s + gz(readFileSync(f)), 0);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await context.close();
  return { ms: at, jsGzip };
}

// ---------------------------------------------------------------------------------------------------------
// 3. Taps.

/**
 * Clicks `selector`'s element in the page and resolves with the ms until `shown()` first holds, rounded up to
 * the next animation frame (the frame that paints it).
 */
async function timedTap(page: Page, clickScript: string, shownScript: string): Promise<number> {
  return page.evaluate(
    ([clickJs, shownJs]) =>
      new Promise<number>((resolve, reject) => {
        const shown = new Function(`return (${shownJs})();`) as () => boolean;
        const click = new Function(`(${clickJs})();`) as () => void;
        const timer = setTimeout(() => {
          observer.disconnect();
          reject(new Error('the result did not show within 10 s'));
        }, 10_000);
        let done = false;
        const observer = new MutationObserver(() => {
          if (done || !shown()) return;
          done = true;
          observer.disconnect();
          clearTimeout(timer);
          requestAnimationFrame(() => resolve(performance.now() - t0));
        });
        observer.observe(document.body, {
          subtree: true,
          childList: true,
          attributes: true,
          characterData: true,
        });
        const t0 = performance.now();
        click();
      }),
    [clickScript, shownScript] as const,
  );
}

/** A plain button in the same page whose click appends a node: the floor of any tap → paint. */
async function baselineTap(page: Page): Promise<number> {
  await page.evaluate(() => {
    document.getElementById('bench-tap')?.remove();
    const b = document.createElement('button');
    b.id = 'bench-tap';
    b.textContent = 'bench';
    b.style.cssText = 'position:fixed;left:0;bottom:0;opacity:0.01';
    b.onclick = () => {
      const s = document.createElement('span');
      s.className = 'bench-tapped';
      b.append(s);
    };
    document.body.append(b);
  });
  const ms = await timedTap(
    page,
    `() => document.getElementById('bench-tap').click()`,
    `() => !!document.querySelector('#bench-tap .bench-tapped')`,
  );
  await page.evaluate(() => document.getElementById('bench-tap')?.remove());
  return ms;
}

/** Opens Reject Part, picks the first reason and 1 part, then times Save → dialog closed and the card showing its "Not yet confirmed" mark. */
async function rejectTap(page: Page): Promise<number> {
  const toolbar = page.getByRole('region', { name: 'Workcenter tools' });
  await toolbar.getByRole('button', { name: 'Reject Part', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Reject Part', exact: true });
  await dialog.waitFor();
  await dialog.getByRole('radio').first().check();
  await dialog.getByLabel('Count').fill('1');
  await page.evaluate(() => {
    for (const el of Array.from(document.querySelectorAll('[aria-label="Not yet confirmed"]')))
      el.setAttribute('data-bench-seen', '');
  });
  const ms = await timedTap(
    page,
    `() => Array.from(document.querySelectorAll('dialog button, [role="dialog"] button')).find((b) => b.textContent.trim() === 'Save').click()`,
    `() => !document.querySelector('dialog[open], [role="dialog"]') && !!document.querySelector('main [aria-label="Not yet confirmed"]')`,
  );
  await dialog.waitFor({ state: 'detached' });
  return ms;
}

// ---------------------------------------------------------------------------------------------------------

async function main() {
  if (!existsSync(join(DIST, 'index.html'))) throw new Error('apps/floor-pwa/dist is missing: npm run build');

  const initial = initialJs();
  console.log('\n1. Initial JavaScript of the workcenter route (entry + modulepreloads + static imports)');
  for (const f of initial.files.sort((a, b) => b.gzip - a.gzip))
    console.log(`   ${f.file.padEnd(48)} ${kb(f.raw).padStart(7)} KB raw ${kb(f.gzip).padStart(6)} KB gzip`);
  console.log(
    `   total ${kb(initial.gzip)} KB gzip (level 9; 1 KB = 1024 B); budget ${BUDGET.initialJsKb} KB ` +
      `→ ${(initial.gzip / 1024 / BUDGET.initialJsKb).toFixed(2)}× budget`,
  );

  const product = await startProduct();
  // The same Chromium, flags and TAKT_CHROMIUM override as the end-to-end tests.
  const browser = await launchChromium();
  try {
    // Log in once; the cold loads reuse only the session cookie.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${product.url}/`);
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByLabel('Password').waitFor({ state: 'detached', timeout: 30_000 });
    const res = await context.request.get(`${product.url}/api/dashboard`);
    const { machines } = (await res.json()) as { machines: Array<{ id: string; name: string }> };
    const machine = machines.find((m) => m.name === 'Citizen L20') ?? machines[0];
    if (!machine) throw new Error('the demo plant has no machine');
    const cookies = await context.cookies();
    const wcUrl = `${product.url}/${machine.id}`;

    // Warm the server (first queries, file reads) so the figures are the browser's, not the first request's.
    await coldLoad(browser, wcUrl, cookies, false);
    if (process.argv.includes('--profile')) {
      console.log(
        `\n2. One cold load of /${machine.id} (${machine.name}), CPU ${CPU_THROTTLE}× throttled, profiled`,
      );
      await coldLoad(browser, wcUrl, cookies, false, true);
      await context.close();
      return;
    }

    const app: number[] = [];
    const blank: number[] = [];
    const fetched: number[] = [];
    for (let i = 0; i < RUNS.load; i++) {
      blank.push((await coldLoad(browser, `${product.url}/bench-blank`, cookies, true)).ms);
      const r = await coldLoad(browser, wcUrl, cookies, false);
      app.push(r.ms);
      fetched.push(r.jsGzip);
    }
    console.log(
      `   cross-check: JS fetched before interactive on a cold load ${kb(median(fetched))} KB gzip (level 9)`,
    );
    console.log(
      `\n2. Cold load of /${machine.id} (${machine.name}) to "Reject Part" enabled, CPU ${CPU_THROTTLE}× throttled, median of ${RUNS.load}`,
    );
    console.log(`   workcenter ${ms(median(app))} ms   runs: ${app.map(ms).join(', ')}`);
    console.log(`   blank page ${ms(median(blank))} ms   runs: ${blank.map(ms).join(', ')}`);
    console.log(
      `   ratio ${(median(app) / median(blank)).toFixed(1)}× baseline; budget ${BUDGET.ttiMs} ms → ` +
        `${(median(app) / BUDGET.ttiMs).toFixed(2)}× budget`,
    );

    // Taps, unthrottled, on the workcenter of the logged-in context.
    await page.goto(wcUrl);
    await page
      .getByRole('region', { name: 'Workcenter tools' })
      .getByRole('button', { name: 'Reject Part', exact: true })
      .waitFor({ timeout: 30_000 });
    const base: number[] = [];
    const online: number[] = [];
    const offline: number[] = [];
    for (let i = 0; i < RUNS.tap; i++) {
      base.push(await baselineTap(page));
      online.push(await rejectTap(page));
    }
    await context.setOffline(true);
    for (let i = 0; i < RUNS.tap; i++) {
      base.push(await baselineTap(page));
      offline.push(await rejectTap(page));
    }
    await context.setOffline(false);
    const b = median(base);
    console.log(
      `\n3. Tap on Save (Reject Part) → pending result painted, no CPU throttling, median of ${RUNS.tap}`,
    );
    console.log(`   baseline tap ${ms(b)} ms   runs: ${base.map(ms).join(', ')}`);
    for (const [name, xs] of [
      ['online ', online],
      ['offline', offline],
    ] as const)
      console.log(
        `   ${name} ${ms(median(xs))} ms (${(median(xs) / b).toFixed(1)}× baseline; ` +
          `${(median(xs) / BUDGET.tapMs).toFixed(2)}× the ${BUDGET.tapMs} ms budget)   runs: ${xs.map(ms).join(', ')}`,
      );
    await context.close();
  } finally {
    await browser.close();
    await product.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});

// Page objects for the floor app (STYLE.md "End-to-end with page objects and role-based locators"), and the
// ways a test looks into a tablet: its IndexedDB outbox and the /api/sync traffic it sends.
import { afterAll, beforeAll, expect } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import type { SyncCommand, SyncOutcome } from '@takt/domain';
import { launchChromium, logIn, startProduct } from './harness';
import type { RunningProduct } from './harness';

export interface Credentials {
  email: string;
  password: string;
}

export interface MachineRef {
  id: string;
  name: string;
}

/**
 * The product (with the demo plant) and Chromium for the tests of one file: started before them, stopped
 * after. Read `product` and `browser` inside the tests.
 */
export function productAndBrowser(env: Record<string, string> = {}): {
  readonly product: RunningProduct;
  readonly browser: Browser;
} {
  const running = {} as { product: RunningProduct; browser: Browser };
  beforeAll(async () => {
    [running.product, running.browser] = await Promise.all([startProduct(env), launchChromium()]);
  });
  afterAll(async () => {
    await running.browser?.close();
    await running.product?.stop();
  });
  return running;
}

/** How long a test waits for what the screen or the server should show soon (polled, never slept). */
export const SOON = { timeout: 20_000, interval: 200 } as const;

/** One tablet: its own browser context (cookies, IndexedDB, service worker), logged in once. */
export class Tablet {
  readonly sent: SyncCommand[] = [];
  readonly answers: SyncOutcome[] = [];

  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
    readonly baseUrl: string,
  ) {
    // Every command the app posts and every answer it gets, as they went over the wire.
    page.on('request', (req) => {
      if (req.method() !== 'POST' || !req.url().endsWith('/api/sync')) return;
      const body = req.postDataJSON() as { commands: SyncCommand[] } | null;
      this.sent.push(...(body?.commands ?? []));
    });
    page.on('response', (res) => {
      const req = res.request();
      if (req.method() !== 'POST' || !req.url().endsWith('/api/sync') || !res.ok()) return;
      res
        .json()
        .then((b: { results?: SyncOutcome[] }) => this.answers.push(...(b.results ?? [])))
        .catch(() => {});
    });
  }

  static async open(browser: Browser, baseUrl: string): Promise<Tablet> {
    // A 10-inch tablet in landscape.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    return new Tablet(context, page, baseUrl);
  }

  /** A tablet whose context and page the test made itself (a registered device, for one). */
  static attach(context: BrowserContext, page: Page, baseUrl: string): Tablet {
    return new Tablet(context, page, baseUrl);
  }

  /** The login form the app shows to a visitor without a session. */
  async logIn(who: Credentials): Promise<void> {
    await this.page.goto(`${this.baseUrl}/`);
    await logIn(this.page, who);
    await expect.poll(() => this.page.getByLabel('Password').count(), SOON).toBe(0);
  }

  /** GET an API path with this tablet's session cookie. */
  async api<T>(path: string): Promise<T> {
    const res = await this.context.request.get(`${this.baseUrl}${path}`);
    if (!res.ok()) throw new Error(`GET ${path}: ${res.status()} ${await res.text()}`);
    return (await res.json()) as T;
  }

  async machine(name: string): Promise<MachineRef> {
    const body = await this.api<{ machines: MachineRef[] }>('/api/dashboard');
    const m = body.machines.find((x) => x.name === name);
    if (!m) throw new Error(`no machine ${name}`);
    return { id: m.id, name: m.name };
  }

  /** Until the server lists a downtime period of the machine (the simulated plant has made one). */
  async waitForDowntime(machine: MachineRef): Promise<void> {
    await expect
      .poll(
        async () =>
          (await this.api<{ items: unknown[] }>(`/api/downtime?machineId=${machine.id}`)).items.length,
        SOON,
      )
      .toBeGreaterThan(0);
  }

  /**
   * The first of `names` (in that order) the server lists a downtime period of, polled until one has. A demo machine
   * connected only after its first idle (a loaded CI machine starts the ingest late) may run a cycle of minutes
   * before its first downtime: any of several does.
   */
  async machineWithDowntime(names: readonly string[]): Promise<MachineRef> {
    const body = await this.api<{ machines: MachineRef[] }>('/api/dashboard');
    const candidates = names.map((name) => {
      const m = body.machines.find((x) => x.name === name);
      if (!m) throw new Error(`no machine ${name}`);
      return { id: m.id, name: m.name };
    });
    let found: MachineRef | undefined;
    await expect
      .poll(
        async () => {
          for (const m of candidates)
            if ((await this.api<{ items: unknown[] }>(`/api/downtime?machineId=${m.id}`)).items.length > 0)
              return (found = m).name;
          return null;
        },
        { timeout: 60_000, interval: 500 },
      )
      .not.toBeNull();
    return found!;
  }

  async workcenter(machine: MachineRef): Promise<WorkcenterPage> {
    const wc = new WorkcenterPage(this, machine);
    await wc.open();
    return wc;
  }

  setOffline(offline: boolean): Promise<void> {
    return this.context.setOffline(offline);
  }

  /** The commands still queued on this tablet (its Dexie outbox), in the order the operator acted. */
  outbox(): Promise<QueuedCommand[]> {
    return readStore<QueuedCommand>(this.page, 'outbox').then((rows) =>
      rows.sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0)),
    );
  }

  async close(): Promise<void> {
    await this.context.close();
  }
}

export interface QueuedCommand {
  seq?: number;
  id: string;
  type: SyncCommand['type'];
  machineId: string;
  payload: Record<string, unknown>;
  occurredAt: number;
}

/** All rows of one store of the app's IndexedDB database (read with the raw API, beside Dexie). */
function readStore<T>(page: Page, store: string): Promise<T[]> {
  return page.evaluate(async (name) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open('takt-floor');
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    try {
      return await new Promise<unknown[]>((resolve, reject) => {
        const r = db.transaction(name, 'readonly').objectStore(name).getAll();
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
    } finally {
      db.close();
    }
  }, store) as Promise<T[]>;
}

/** The workcenter view of one machine (live-operations §2) and the operator actions in its toolbar. */
export class WorkcenterPage {
  readonly page: Page;
  readonly card: Locator;
  readonly toolbar: Locator;
  readonly syncStatus: Locator;
  readonly refused: Locator;
  readonly pendingMarks: Locator;

  constructor(
    readonly tablet: Tablet,
    readonly machine: MachineRef,
  ) {
    const page = tablet.page;
    this.page = page;
    this.card = page.getByRole('main', { name: `Workcenter ${machine.name}` });
    this.toolbar = page.getByRole('region', { name: 'Workcenter tools' });
    this.syncStatus = page.getByRole('status', { name: 'Sync status' });
    this.refused = page.getByRole('region', { name: 'Not accepted by the server' });
    this.pendingMarks = this.card.getByRole('img', { name: 'Not yet confirmed' });
  }

  get url(): string {
    return `${this.tablet.baseUrl}/${this.machine.id}`;
  }

  /** Opens the workcenter and waits until its data is stored on the tablet (so it also works offline). */
  async open(): Promise<void> {
    await this.page.goto(this.url);
    await this.waitUntilShown();
    await expect
      .poll(async () => {
        const kv = await readStore<{ key: string }>(this.page, 'kv');
        return kv.some((r) => r.key === `pulledAt:${this.machine.id}`);
      }, SOON)
      .toBe(true);
  }

  async waitUntilShown(): Promise<void> {
    await expect.poll(() => this.card.count(), SOON).toBe(1);
    await expect.poll(() => this.button('Reject Part').count(), SOON).toBe(1);
  }

  /**
   * Reload (online or not): the service worker serves the app shell, Dexie the data and the outbox. Returns
   * whether the page itself came from the service worker.
   */
  async reload(): Promise<{ fromServiceWorker: boolean }> {
    const res = await this.page.reload();
    await this.waitUntilShown();
    return { fromServiceWorker: res?.fromServiceWorker() ?? false };
  }

  /**
   * The service worker is active and controls the page: a navigation or a lazily loaded screen is served from
   * its precache from now on.
   */
  async waitForServiceWorker(): Promise<void> {
    await this.page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    const controlled = () => this.page.evaluate(() => navigator.serviceWorker.controller != null);
    try {
      await expect.poll(controlled, { timeout: 5_000, interval: 200 }).toBe(true);
    } catch {
      // The worker claimed its clients while this page's navigation was still on its way (seen under CI load):
      // a document committed after clients.claim() stays uncontrolled. The next visit is controlled, as the
      // offline contract says ("after one online visit").
      await this.reload();
      await expect.poll(controlled, SOON).toBe(true);
    }
  }

  button(name: string | RegExp): Locator {
    return this.toolbar.getByRole('button', { name, exact: typeof name === 'string' });
  }

  dialog(name: string): Locator {
    return this.page.getByRole('dialog', { name, exact: true });
  }

  async syncText(): Promise<string> {
    return ((await this.syncStatus.textContent()) ?? '').trim();
  }

  /** Nothing left in the outbox (every queued action answered) and the sync loop at rest. */
  async waitAllSaved(timeout = 30_000): Promise<void> {
    await expect
      .poll(async () => `${(await this.tablet.outbox()).length} queued, ${await this.syncText()}`, {
        timeout,
        interval: 200,
      })
      .toBe('0 queued, All changes saved');
  }

  /** Start Job: search the operation, then start it in setup on a stage, or in production. */
  async startJob(job: string, how: { stage: string } | 'production'): Promise<void> {
    await this.button('Start Job').click();
    const d = this.dialog('Start Job');
    await d.getByRole('searchbox', { name: 'Search operations' }).fill(job);
    const operations = d.getByRole('list', { name: 'Operations' });
    const row = operations.getByRole('button', { name: job, exact: true });
    await row.click();
    // One tap chooses it, also while the search is still loading (a tap is never lost).
    await expect.poll(() => row.getAttribute('aria-pressed'), SOON).toBe('true');
    if (how === 'production') {
      await d.getByRole('button', { name: 'Start in Production' }).click();
    } else {
      await d
        .getByRole('group', { name: 'Start Job in Setup' })
        .getByRole('button', { name: how.stage, exact: true })
        .click();
    }
    await expect.poll(() => d.count(), SOON).toBe(0);
  }

  async changeStage(stage: string): Promise<void> {
    await this.button('Setup').click();
    const d = this.dialog('Setup');
    const stageButton = d
      .getByRole('group', { name: 'Change Stage' })
      .getByRole('button', { name: stage, exact: true });
    await stageButton.click();
    // The overlay stays open: the chosen stage is the current one once the change is queued.
    await expect.poll(() => stageButton.getAttribute('aria-pressed'), SOON).toBe('true');
    await d.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => d.count(), SOON).toBe(0);
  }

  /** Opens Setup and reads how many parts were made in setup (the hint under "Parts to keep"). */
  async startProduction(o: { keep: number; notes: string; madeAtLeast?: number }): Promise<number> {
    await this.button('Setup').click();
    const d = this.dialog('Setup');
    const form = d.getByRole('form', { name: 'Start Production' });
    const hint = form.getByText(/^0 to \d+ parts made in setup$/);
    const shown = async () =>
      (await hint.count()) === 1 ? Number(/0 to (\d+)/.exec((await hint.textContent()) ?? '')?.[1]) : -1;
    // The overlay may first show the count of its last opening, then the one it just asked the server for.
    await expect.poll(shown, SOON).toBeGreaterThanOrEqual(o.madeAtLeast ?? 0);
    const made = await shown();
    await form.getByLabel('Parts to keep').fill(String(o.keep));
    await form.getByLabel('Notes').fill(o.notes);
    await d.getByRole('button', { name: 'Start Production' }).click();
    await expect.poll(() => d.count(), SOON).toBe(0);
    return made;
  }

  /**
   * Reject Part. `removeFromGood: false` unticks "Remove from good parts" (on by default): the rejected parts are
   * then counted as made too, so a run that has made nothing yet can take them (decision 0997).
   */
  async rejectPart(o: {
    count: number;
    reason: string;
    message?: string;
    removeFromGood?: false;
  }): Promise<void> {
    await this.button('Reject Part').click();
    const d = this.dialog('Reject Part');
    await d.getByRole('radio', { name: o.reason, exact: true }).check();
    await d.getByLabel('Count').fill(String(o.count));
    if (o.removeFromGood === false) await d.getByLabel('Remove from good parts').uncheck();
    if (o.message) await d.getByLabel('Message').fill(o.message);
    await d.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => d.count(), SOON).toBe(0);
  }

  /** Opens the workcenter menu (a disclosure) and returns its list. */
  async openMenu(): Promise<Locator> {
    const button = this.button('Menu');
    await button.click();
    await expect.poll(() => button.getAttribute('aria-expanded'), SOON).toBe('true');
    return this.toolbar.getByRole('list');
  }

  /** Stop Job: "Are you sure?", then confirm. */
  async stopJob(): Promise<void> {
    await this.button('Stop Job').click();
    const d = this.dialog('Stop Job');
    await expect.poll(() => d.getByText('Are you sure?', { exact: true }).count(), SOON).toBe(1);
    await d.getByRole('button', { name: 'Stop Job' }).click();
    await expect.poll(() => d.count(), SOON).toBe(0);
  }

  async logInOperator(name: string): Promise<void> {
    await this.button(/^Operator/).click();
    const d = this.dialog('Operator Login');
    await d.getByRole('radio', { name, exact: true }).check();
    await d.getByRole('button', { name: 'Log In Now' }).click();
    await expect.poll(() => d.count(), SOON).toBe(0);
  }

  /** The rows of the Categorize Downtime list (short periods too), newest first, as the operator reads them. */
  async downtimeRows(): Promise<Array<{ text: string; pending: boolean }>> {
    await this.card.getByRole('button', { name: /^Downtime/ }).click();
    const list = this.dialog('Categorize Downtime');
    await list.getByRole('checkbox', { name: 'Show Short Downtimes' }).check();
    const rows = list.getByRole('listitem').getByRole('button');
    const out: Array<{ text: string; pending: boolean }> = [];
    for (const row of await rows.all()) {
      out.push({
        text: ((await row.textContent()) ?? '').trim(),
        pending: (await row.getByRole('img', { name: 'Not yet confirmed' }).count()) > 0,
      });
    }
    await list.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => list.count(), SOON).toBe(0);
    return out;
  }

  /**
   * Categorize Downtime: opens the list (short periods shown too) and gives a reason to the row `pick` chooses
   * (by default the oldest one, which no longer moves while the machine runs).
   */
  async categorizeDowntime(o: {
    reason: string;
    description?: string;
    pick?: (rows: Locator) => Locator;
  }): Promise<void> {
    await this.card.getByRole('button', { name: /^Downtime/ }).click();
    const list = this.dialog('Categorize Downtime');
    await list.getByRole('checkbox', { name: 'Show Short Downtimes' }).check();
    const rows = list.getByRole('listitem').getByRole('button');
    await expect.poll(() => rows.count(), SOON).toBeGreaterThan(0);
    await (o.pick ?? ((r: Locator) => r.last()))(rows).click();
    const form = this.dialog('Add Downtime Reason');
    await form.getByRole('radio', { name: o.reason, exact: true }).check();
    if (o.description) await form.getByLabel('Description').fill(o.description);
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => form.count(), SOON).toBe(0);
    await list.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => list.count(), SOON).toBe(0);
  }
}

/**
 * Records every text the page's toasts show, with the time, from now on until the page is next loaded (a
 * MutationObserver in the page), so a test can check a toast's sequence after the fact: read it with `toastLog(page)`.
 */
export async function recordToasts(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __toasts?: Array<{ at: number; text: string }> };
    if (w.__toasts) return;
    const log: Array<{ at: number; text: string }> = [];
    w.__toasts = log;
    const region = document.querySelector('section.toasts');
    if (!region) throw new Error('no toast region');
    let last = '';
    const note = () => {
      const text = Array.from(region.children)
        .map((c) => (c as HTMLElement).innerText.replace(/\s+/g, ' ').trim())
        .join(' | ');
      if (text !== last) log.push({ at: Date.now(), text });
      last = text;
    };
    note();
    new MutationObserver(note).observe(region, { childList: true, subtree: true, characterData: true });
  });
}

/** What recordToasts saw on `page`; throws when the page is not recording (reloaded since, or never asked). */
export async function toastLog(page: Page): Promise<Array<{ at: number; text: string }>> {
  const log = await page.evaluate(
    () => (window as unknown as { __toasts?: Array<{ at: number; text: string }> }).__toasts ?? null,
  );
  if (!log)
    throw new Error('the page records no toasts: recordToasts was not called since it was last loaded');
  return log;
}

/** What each tablet showed when a test failed: its accessibility tree and sync status, for the report. */
export async function describeTablets(tablets: readonly Tablet[]): Promise<string> {
  const parts = await Promise.all(
    tablets.map(async (t, i) => {
      const tree = await t.page
        .locator('body')
        .ariaSnapshot({ timeout: 2_000 })
        .catch((e: unknown) => `(no snapshot: ${String(e)})`);
      return `--- tablet ${i + 1} at ${t.page.url()}\n${tree}`;
    }),
  );
  return parts.join('\n');
}

import { Hono } from 'hono';
import { eventExportRequestSchema } from '@takt/domain';
import type { AppEnv } from '../http/context';
import { csvResponse } from '../http/csv';
import { jsonBody } from '../http/validate';
import { eventExportDownload, queueEventExport } from '../services/event-exports';
import { inTransaction } from './live-ctx';
import { publicUrlOf } from '../http/public-url';

/**
 * Event export (live-operations §7; reports-admin §7; decision 0702). Mounted under /api/reports.
 * POST /api/reports/event/queue `{ machineId, start, end, filterKeys }` → 202 `{ id, message }` with
 *   "We'll send that to you within an hour."; 400 for start ≥ end, start over 2 years back, end after now.
 * GET /api/reports/export/download/:id[?token=] → the CSV (409 while it is being built).
 */
export const eventExportRoutes = new Hono<AppEnv>()
  .post('/event/queue', async (c) => {
    const body = await jsonBody(c, eventExportRequestSchema);
    // The link in the e-mail points back at the host the request came to.
    // The download link in the e-mail starts with the configured public address (decision 0989).
    const origin = publicUrlOf(c.var.deps);
    return c.json(await inTransaction(c, (ctx) => queueEventExport(ctx, body, origin)), 202);
  })
  .get('/export/download/:id', async (c) => {
    const file = await inTransaction(c, (ctx) => eventExportDownload(ctx, c.req.param('id')));
    return csvResponse(c, file.filename, file.csv);
  });

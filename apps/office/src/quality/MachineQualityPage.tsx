import type { CompanyClock } from '@takt/domain';
import { isRecord, tr, useSession, useToasts } from '@takt/ui';
import type { Horizon } from '@takt/ui';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../api';
import { MachineReportFrame, PlainTh, ReportClockGate, Tile } from '../components/ReportParts';
import {
  draftOf,
  newDraft,
  newestFirst,
  parseAdjustments,
  parseReasons,
  readPrefill,
  reasonsFor,
  scrapSummary,
  signedCount,
  typeLabel,
  withoutPrefill,
} from './scrap-form';
import type { Adjustment, AdjustmentKind, Reason, ScrapDraft, ScrapFormContext } from './scrap-form';
import { ScrapForm } from './ScrapForm';
import './scrap.css';
import { useCompanyFlags, useMachine, useMachineReport } from '../reports/hooks';
import { listTimeFormat, unsavedHorizons } from '../reports/shared';
import type { LZ } from '../reports/shared';
import { hasPermission, PATHS } from '../routes';

// reports-admin §2 "Machine quality" (/machine/{id}/quality?start&end[&adjustmenttime&qty]: scrap grid with
// Time, Operation, Count, Reason, Message, Type; clicking a row opens an edit form) and the part corrections
// of one machine (app/machines/{id}/part-corrections?start&end&adjustmenttime&qty), over GET, POST, PUT and
// DELETE /api/partadjustment (reports-admin §7).

/** Machine reports: a day or an hour, quick links of one week at most (reports-admin §2). */
const HORIZONS: readonly Horizon[] = ['hour', 'day'];

export function MachineQualityPage({ kind }: { kind: AdjustmentKind }) {
  return (
    <ReportClockGate title={kind === 'reject' ? tr('scrap.grid') : tr('scrap.correctionsGrid')}>
      {(clock, offsetMs) => <MachineAdjustments clock={clock} offsetMs={offsetMs} kind={kind} />}
    </ReportClockGate>
  );
}

type Load<T> = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; data: T };

/** The form on screen: a new entry (maybe prefilled from a cycle) or an edited one. */
type Open = { editing: Adjustment | null; initial: ScrapDraft; prefilled: boolean } | null;

function MachineAdjustments({
  clock,
  offsetMs,
  kind,
}: {
  clock: CompanyClock;
  offsetMs: number;
  kind: AdjustmentKind;
}) {
  const { me } = useSession();
  const toasts = useToasts();
  const navigate = useNavigate();
  const { report, machineId } = useMachineReport({ clock, offsetMs, ...unsavedHorizons('day', HORIZONS) });
  const page = report;
  const { applied, lz, query, setParams } = report;
  const canEdit = hasPermission(me, 'FullProduct');
  const timezone = me.company.timezone;

  const machine = useMachine(machineId);
  const [allReasons, setAllReasons] = useState<Reason[]>([]);
  const hideRemoveFlag = useCompanyFlags()?.hide_remove_rejected_parts_checkbox ?? false;
  const [version, setVersion] = useState(0);
  const [rows, setRows] = useState<{ key: string; load: Load<Adjustment[]> }>({
    key: '',
    load: { kind: 'loading' },
  });

  // The reject reasons, archived ones too (older rows name them).
  useEffect(() => {
    const controller = new AbortController();
    api
      .request('/api/partadjustmenttypes', {
        signal: controller.signal,
        query: { includeHidden: true },
        parse: parseReasons,
      })
      .then(setAllReasons)
      .catch(() => undefined);
    return () => controller.abort();
  }, []);

  const key = JSON.stringify([machineId, applied.start, applied.end, kind, version]);
  useEffect(() => {
    const controller = new AbortController();
    api
      .request('/api/partadjustment', {
        signal: controller.signal,
        query: {
          machine_id: machineId,
          start: applied.start,
          end: applied.end,
          includeHidden: true,
          scrap: kind === 'reject',
        },
        parse: parseAdjustments,
      })
      .then((data) => setRows({ key, load: { kind: 'ready', data: newestFirst(data) } }))
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        setRows({
          key,
          load: { kind: 'error', message: err instanceof Error ? err.message : tr('scrap.loadFailed') },
        });
      });
    return () => controller.abort();
  }, [key, machineId, applied.start, applied.end, kind]);
  const load = rows.load;
  const fresh = rows.key === key;

  // The machine's Quality for the range (METRICS.md §3: good / total parts), so a reject's effect shows here.
  const [quality, setQuality] = useState<{ key: string; value: number | null }>({ key: '', value: null });
  useEffect(() => {
    const controller = new AbortController();
    api
      .request('/api/reports/warehouse/production', {
        method: 'POST',
        signal: controller.signal,
        body: {
          start: applied.start,
          end: applied.end,
          data: ['quality'],
          filter: { machine: [machineId] },
        },
        parse: aggregateQuality,
      })
      .then((value) => setQuality({ key, value }))
      .catch(() => {
        // Without it the grid still works; the tile says '-'.
        if (!controller.signal.aborted) setQuality({ key, value: null });
      });
    return () => controller.abort();
  }, [key, machineId, applied.start, applied.end]);

  // adjustmenttime and qty in the URL open the form prefilled (reports-admin §2), once.
  const prefill = useMemo(() => readPrefill(query), [query]);
  const [open, setOpen] = useState<Open>(null);
  const [prefillSeen, setPrefillSeen] = useState<string | null>(null);
  const prefillKey = prefill ? `${prefill.adjustmenttime}|${prefill.qty ?? ''}` : null;
  if (canEdit && prefill && prefillKey !== prefillSeen) {
    setPrefillSeen(prefillKey);
    setOpen({
      editing: null,
      initial: newDraft(kind, timezone, prefill.adjustmenttime, prefill.qty),
      prefilled: true,
    });
  }

  const ctx: ScrapFormContext = useMemo(
    () => ({
      kind,
      timezone,
      reasons: reasonsFor(kind, allReasons, open?.editing?.category_id ?? null),
      manual: machine?.manual ?? false,
      hideRemoveFlag,
      now: page.now,
    }),
    [kind, timezone, allReasons, open, machine, hideRemoveFlag, page.now],
  );

  const openNew = () =>
    setOpen({ editing: null, initial: newDraft(kind, timezone, Date.now() + offsetMs), prefilled: false });
  const openEdit = (a: Adjustment) =>
    setOpen({ editing: a, initial: draftOf(a, timezone), prefilled: false });
  const close = useCallback(
    (changed: 'saved' | 'deleted' | null) => {
      setOpen(null);
      if (prefill) setParams(withoutPrefill, true);
      if (changed) {
        setVersion((v) => v + 1);
        toasts.show({ message: tr(changed === 'saved' ? 'scrap.saved' : 'scrap.deleted'), tone: 'success' });
      }
    },
    [prefill, setParams, toasts],
  );

  const name = machine?.name ?? '…';
  const toQualityReport = () => {
    const q = new URLSearchParams(withoutPrefill(query));
    q.set('machine', machineId);
    void navigate(`${PATHS.quality}?${q.toString()}`);
  };

  return (
    <>
      <MachineReportFrame
        report={report}
        horizons={HORIZONS}
        title={tr(kind === 'reject' ? 'scrap.title' : 'scrap.correctionsTitle', { name })}
        returnText={tr('scrap.returnToQuality')}
        onReturn={toQualityReport}
        loading={!fresh || load.kind === 'loading'}
        error={fresh && load.kind === 'error' ? load.message : null}
        empty={null}
      >
        {load.kind === 'ready' && (
          <Results
            kind={kind}
            rows={load.data}
            quality={quality.key === key ? quality.value : null}
            lz={lz}
            canEdit={canEdit}
            onAdd={openNew}
            onEdit={openEdit}
          />
        )}
      </MachineReportFrame>
      {open && (
        <ScrapForm
          // A new form for each entry: its draft starts from that entry.
          key={open.editing?.id ?? `new-${open.initial.time}`}
          machineId={machineId}
          ctx={ctx}
          editing={open.editing}
          initial={open.initial}
          prefilled={open.prefilled}
          onClose={close}
        />
      )}
    </>
  );
}

const timeFormat = (lz: LZ) => listTimeFormat(lz, { weekday: true, seconds: true });

/** The aggregate quality of POST /api/reports/warehouse/production; null when there were no parts. */
function aggregateQuality(v: unknown): number | null {
  const aggregate = isRecord(v) ? v.aggregate : null;
  const q = isRecord(aggregate) ? aggregate.quality : null;
  return typeof q === 'number' && Number.isFinite(q) ? q : null;
}

/** reports-admin §9: OEE percentages one decimal; null shows '-'. */
const percent = (q: number | null) => (q === null ? '-' : `${(q * 100).toFixed(1)}%`);

function Results({
  kind,
  rows,
  quality,
  lz,
  canEdit,
  onAdd,
  onEdit,
}: {
  kind: AdjustmentKind;
  rows: readonly Adjustment[];
  quality: number | null;
  lz: LZ;
  canEdit: boolean;
  onAdd: () => void;
  onEdit: (a: Adjustment) => void;
}) {
  const summary = scrapSummary(rows, kind);
  const format = timeFormat(lz);
  const reject = kind === 'reject';
  const gridTitle = reject ? tr('scrap.grid') : tr('scrap.correctionsGrid');
  const onKey = (a: Adjustment) => (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      onEdit(a);
    }
  };
  return (
    <>
      <section className="report__summary report__summary--oee" aria-label={tr('scrap.summaryLabel')}>
        <div className="tiles tiles--wrap">
          <Tile label={tr('scrap.quality')} value={percent(quality)} hint={tr('scrap.qualityHint')} />
          {reject ? (
            <>
              <Tile label={tr('scrap.rejected')} value={String(summary.parts)} />
              <Tile label={tr('scrap.scrapParts')} value={String(summary.scrap)} />
              <Tile label={tr('scrap.nonconformParts')} value={String(summary.nonconform)} />
              <Tile label={tr('scrap.rejectCount')} value={String(summary.entries)} />
            </>
          ) : (
            <>
              <Tile label={tr('scrap.corrected')} value={signedCount(summary.parts)} />
              <Tile label={tr('scrap.correctionCount')} value={String(summary.entries)} />
            </>
          )}
        </div>
      </section>
      <section className="report__list" aria-labelledby="scrap-grid-heading">
        <div className="page__head">
          <h2 id="scrap-grid-heading">{gridTitle}</h2>
          {canEdit && (
            <div className="page__tools">
              <button type="button" className="button button--primary" onClick={onAdd}>
                {reject ? tr('scrap.add') : tr('scrap.addCorrection')}
              </button>
            </div>
          )}
        </div>
        <p className="report__intro">{reject ? tr('scrap.gridIntro') : tr('scrap.correctionsIntro')}</p>
        {rows.length === 0 ? (
          <p className="notice">{reject ? tr('scrap.empty') : tr('scrap.correctionsEmpty')}</p>
        ) : (
          <div className="table-wrap">
            <table className="table scrap-grid" aria-label={gridTitle}>
              <thead>
                <tr>
                  <PlainTh label={tr('scrap.col.time')} />
                  <PlainTh label={tr('scrap.col.operation')} />
                  <PlainTh label={tr('scrap.col.count')} className="num-col" />
                  <PlainTh label={tr('scrap.col.reason')} />
                  <PlainTh label={tr('scrap.col.message')} />
                  {reject && <PlainTh label={tr('scrap.col.type')} />}
                </tr>
              </thead>
              <tbody>
                {rows.map((a) => {
                  const time = format.format(a.adjustmenttime);
                  return (
                    <tr
                      key={a.id}
                      className={canEdit ? 'scrap-grid__row' : undefined}
                      // reports-admin §2: clicking a row opens the edit form; the time is its keyboard handle.
                      onClick={canEdit ? () => onEdit(a) : undefined}
                    >
                      <td className="num" data-label={tr('scrap.col.time')}>
                        {canEdit ? (
                          <button
                            type="button"
                            className="link-button"
                            aria-label={tr('scrap.editRow', { time })}
                            onClick={(e) => {
                              e.stopPropagation();
                              onEdit(a);
                            }}
                            onKeyDown={onKey(a)}
                          >
                            {time}
                          </button>
                        ) : (
                          time
                        )}
                      </td>
                      <td data-label={tr('scrap.col.operation')}>{a.jobName ?? tr('scrap.noOperation')}</td>
                      <td className="num-col num" data-label={tr('scrap.col.count')}>
                        {reject ? a.scrapcount : signedCount(a.count)}
                      </td>
                      <td data-label={tr('scrap.col.reason')}>
                        {a.partadjustmentType ? (
                          <span className="reason-cell">
                            <span
                              className="swatch"
                              style={{ background: a.partadjustmentType.color }}
                              aria-hidden="true"
                            />
                            {a.partadjustmentType.name}
                          </span>
                        ) : (
                          tr('scrap.noReason')
                        )}
                      </td>
                      <td className="scrap-grid__message" data-label={tr('scrap.col.message')}>
                        {a.message ?? ''}
                      </td>
                      {reject && <td data-label={tr('scrap.col.type')}>{typeLabel(a.reject_behavior)}</td>}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}

import {
  formatCount,
  formatDateTime,
  formatTimeOfDay,
  localeZone,
  Progress,
  StatusBadge,
  t,
  useServerNow,
  useSession,
} from '@takt/ui';
import { useParams } from 'react-router';
import { connectionView, formatAge, formatFieldValue, isFresh } from './diagnostics';
import { MachineToolsFrame } from './MachineToolsFrame';
import { useMachineDiagnostics } from './useMachineDiagnostics';

/** A field's MTConnect type, or "Not mapped" for a key no adapter field maps. */
function typeText(type: string | null) {
  return type ?? <span className="machine-tools__unmapped">{t('machineTools.notMapped')}</span>;
}

/**
 * /machine/{id}/diagnostics (reports-admin §2 "a machine diagnostics page"; decision 0810): the machine's
 * link (live-operations §4 live connection status, §9 heartbeat timeout 5 minutes), the latest value of every
 * field, live via the channel's `diagnostics` stream, and the keys no adapter field maps.
 */
export function MachineDiagnosticsPage() {
  const { id: machineId = '' } = useParams();
  const { me } = useSession();
  const lz = localeZone(me);
  const d = useMachineDiagnostics(machineId, true);
  const now = useServerNow(d.offsetMs);
  const { answer } = d;
  const time = (ms: number) => formatDateTime(ms, lz);
  const conn = answer ? connectionView(answer, now, time) : null;
  const mapped = answer ? answer.fields.filter((f) => f.dataItemType != null).length : 0;

  return (
    <MachineToolsFrame machineId={machineId} tool="diagnostics" live={d.channel} busy={d.loading && !answer}>
      <p className="machine-tools__intro">{t('machineTools.diagnostics.intro')}</p>
      {d.error && (
        <p className="notice notice--error" role="alert">
          {d.error}
        </p>
      )}
      {!answer && d.loading && <Progress />}
      {answer && conn && (
        <>
          <section className="machine-tools__section" aria-labelledby="diag-connection">
            <h2 id="diag-connection">{t('machineTools.diagnostics.connection')}</h2>
            {/* The server does not dial this source: the reason, as the address policy gives it (decision 0985). */}
            {answer.sourceProblem && (
              <p className="notice notice--error" role="alert">
                {answer.sourceProblem}
              </p>
            )}
            <div className="tiles tiles--wrap">
              <div className="tile" data-status={conn.status}>
                <span className="tile__label">{t('machineTools.diagnostics.link')}</span>
                <span className="machine-tools__badge">
                  <StatusBadge status={conn.status}>{conn.label}</StatusBadge>
                </span>
                <span className="tile__hint">{conn.detail}</span>
              </div>
              <div className="tile">
                <span className="tile__label">{t('machineTools.diagnostics.fieldsMapped')}</span>
                <span className="tile__value num">{formatCount(mapped, lz.locale)}</span>
                <span className="tile__hint">
                  {t('machineTools.diagnostics.unmappedCount', { count: answer.unmapped.length })}
                </span>
              </div>
              <div className="tile">
                <span className="tile__label">{t('machineTools.diagnostics.lines')}</span>
                <span className="tile__value num">{formatCount(answer.counters.lines, lz.locale)}</span>
                <span className="tile__hint">
                  {t('machineTools.diagnostics.lastLine', {
                    time:
                      answer.counters.lastLineAt == null
                        ? t('machineTools.never')
                        : time(answer.counters.lastLineAt),
                  })}
                </span>
              </div>
              <div className="tile" data-status={answer.counters.rejected > 0 ? 'warning' : undefined}>
                <span className="tile__label">{t('machineTools.diagnostics.rejected')}</span>
                <span className="tile__value num">{formatCount(answer.counters.rejected, lz.locale)}</span>
                <span className="tile__hint">{t('machineTools.diagnostics.rejectedHint')}</span>
              </div>
            </div>
          </section>

          <section className="machine-tools__section" aria-labelledby="diag-values">
            <h2 id="diag-values">{t('machineTools.diagnostics.values')}</h2>
            <p className="tile__hint">{t('machineTools.diagnostics.valuesHint')}</p>
            <div className="table-wrap">
              <table className="table">
                <caption className="visually-hidden">{t('machineTools.diagnostics.values')}</caption>
                <thead>
                  <tr>
                    <th scope="col">
                      <span className="th-text">{t('machineTools.col.field')}</span>
                    </th>
                    <th scope="col" className="machine-tools__type-col">
                      <span className="th-text">{t('machineTools.col.type')}</span>
                    </th>
                    <th scope="col" className="num-col">
                      <span className="th-text">{t('machineTools.col.value')}</span>
                    </th>
                    <th scope="col">
                      <span className="th-text">{t('machineTools.col.reported')}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {answer.fields.length === 0 && (
                    <tr>
                      <td colSpan={4} className="table__empty">
                        {t('machineTools.diagnostics.noValues')}
                      </td>
                    </tr>
                  )}
                  {answer.fields.map((f) => (
                    <tr key={f.key} className={isFresh(f, now) ? 'row--fresh' : undefined} data-key={f.key}>
                      <th scope="row">
                        <span className="mono">{f.key}</span>
                        {/* On a phone the type column gives way: the type goes under the key. */}
                        <span className="machine-tools__type-inline" aria-hidden="true">
                          {typeText(f.dataItemType)}
                        </span>
                      </th>
                      <td className="machine-tools__type-col">{typeText(f.dataItemType)}</td>
                      <td className="num-col machine-tools__value">{formatFieldValue(f.value, lz.locale)}</td>
                      <td>
                        {f.ts == null ? (
                          t('machineTools.diagnostics.notHeard')
                        ) : (
                          <>
                            <time dateTime={new Date(f.ts).toISOString()} title={time(f.ts)}>
                              {formatTimeOfDay(f.ts, lz)}
                            </time>{' '}
                            <span className="machine-tools__age">({formatAge(f.ts, now)})</span>
                          </>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>

          <section className="machine-tools__section" aria-labelledby="diag-unmapped">
            <h2 id="diag-unmapped">{t('machineTools.diagnostics.unmapped')}</h2>
            {answer.unmapped.length === 0 ? (
              <p className="notice">{t('machineTools.diagnostics.allMapped')}</p>
            ) : (
              <>
                <p className="tile__hint">{t('machineTools.diagnostics.unmappedHint')}</p>
                <ul className="machine-tools__keys">
                  {answer.unmapped.map((k) => (
                    <li key={k} className="mono">
                      {k}
                    </li>
                  ))}
                </ul>
              </>
            )}
          </section>
        </>
      )}
    </MachineToolsFrame>
  );
}

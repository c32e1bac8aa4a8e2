import { tr } from '@takt/ui';
import { Link } from 'react-router';
import { ADMIN_PATHS } from '../admin/screens';
import type { RunDraft } from './runs';
import { NumberField, SetupFieldset } from './ProductionRunEditPage';
import type { ScheduleDraft } from './schedule';
import type { checkStagesDraft, StageChoice } from './schedule-stages';
import { stageTimes } from './schedule-stages';

/**
 * The second form's setup (decision 0940): start in setup none, planned or unplanned, the setup time, and the
 * plan it makes: each active stage in stage order with its share, minutes and times, then production.
 */
export function StagesFieldset({
  draft,
  errors,
  plan,
  stages,
  stagesOn,
  timeZone,
  disabled,
  setRun,
  setMinutes,
}: {
  draft: ScheduleDraft;
  errors: ReturnType<typeof checkStagesDraft>['errors'];
  plan: ReturnType<typeof checkStagesDraft>['plan'];
  stages: readonly StageChoice[];
  stagesOn: boolean;
  timeZone: string;
  disabled: boolean;
  setRun: <K extends keyof RunDraft>(k: K, v: RunDraft[K]) => void;
  setMinutes: (v: string) => void;
}) {
  const inSetup = draft.startInSetup !== 'none';
  const last = plan.at(-1);
  return (
    <SetupFieldset draft={draft} errors={errors} set={setRun} disabled={disabled} askSetupEnd={false}>
      {inSetup && (
        <NumberField
          label={tr('scheduleMore.form.setupTotal')}
          value={draft.setupMinutes}
          error={errors.setupTime}
          hint={tr('scheduleMore.form.stagesHint')}
          onChange={setMinutes}
        />
      )}
      {inSetup && !stagesOn && <p className="run-form__hint">{tr('scheduleMore.form.stagesNotOn')}</p>}
      {inSetup && stages.length === 0 && (
        <p className="run-form__hint">
          {tr('scheduleMore.form.noStages')}{' '}
          <Link to={ADMIN_PATHS.setupStages}>{tr('scheduleMore.form.stagesLink')}</Link>
        </p>
      )}
      {inSetup && plan.length > 0 && (
        <table className="schedule-form__stages">
          <caption>{tr('scheduleMore.form.stages')}</caption>
          <thead>
            <tr>
              <th scope="col">{tr('scheduleMore.form.stage')}</th>
              <th scope="col" className="schedule-form__share">
                {tr('scheduleMore.form.share')}
              </th>
              <th scope="col">{tr('scheduleMore.form.minutes')}</th>
              <th scope="col">{tr('scheduleMore.form.time')}</th>
            </tr>
          </thead>
          <tbody>
            {plan.map((p) => {
              const times = stageTimes(p, timeZone);
              // A no-break space keeps "25 %" on one line in a narrow column.
              const share = `${p.stage.setupPercentage}\u00a0%`;
              return (
                <tr key={p.stage.id}>
                  <th scope="row">
                    {p.stage.name}
                    {/* A phone has no room for the Share column: the share follows the name. */}
                    <span className="schedule-form__share-inline">{share}</span>
                  </th>
                  <td className="schedule-form__share">{share}</td>
                  <td>{times.minutes}</td>
                  <td>
                    {times.from}–{times.to}
                  </td>
                </tr>
              );
            })}
            {last && (
              <tr>
                <th scope="row">{tr('scheduleMore.form.production')}</th>
                <td className="schedule-form__share" />
                <td />
                <td>{tr('scheduleMore.form.productionFrom', { from: stageTimes(last, timeZone).to })}</td>
              </tr>
            )}
          </tbody>
        </table>
      )}
      {errors.stages && <p className="run-form__error">{errors.stages}</p>}
    </SetupFieldset>
  );
}

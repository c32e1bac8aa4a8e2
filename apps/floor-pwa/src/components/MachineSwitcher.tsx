import { GroupSelect, Link, machinesInGroup, replaceSegment, t, useLocation } from '@takt/ui';
import type { LiveMachine } from '@takt/ui';
import { useEffect, useId, useRef, useState } from 'react';

/** live-operations §2: the chosen machine group is kept in local storage under a workcenter machineGroup key. */
export const MACHINE_GROUP_STORAGE_KEY = 'workcenter.machineGroup';

function readStoredGroup(): string | null {
  try {
    return localStorage.getItem(MACHINE_GROUP_STORAGE_KEY) || null;
  } catch {
    return null; // storage blocked (private mode, kiosk policy): the filter just isn't remembered
  }
}

function storeGroup(group: string | null): void {
  try {
    if (group) localStorage.setItem(MACHINE_GROUP_STORAGE_KEY, group);
    else localStorage.removeItem(MACHINE_GROUP_STORAGE_KEY);
  } catch {
    // see readStoredGroup
  }
}

export interface MachineSwitcherProps {
  machines: readonly LiveMachine[];
  groups: readonly { id: string; name: string }[];
  currentId: string;
}

/**
 * The machine switch overlay: filter by group or All Machines; choosing a machine replaces the machine id in
 * the current URL's path (the rest of the path and the query stay, so TV and dashboard type survive).
 */
export function MachineSwitcher({ machines, groups, currentId }: MachineSwitcherProps) {
  const { pathname, search } = useLocation();
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [group, setGroup] = useState<string | null>(readStoredGroup);
  const knownGroup = group && groups.some((g) => g.id === group) ? group : null;
  const shown = machinesInGroup(machines, knownGroup);

  // The id is the first path segment of the workcenter routes (/:machineId and /:machineId/:dashboardType).
  const hrefFor = (machineId: string) => replaceSegment(pathname, 0, machineId) + search;

  const close = () => dialog.current?.close();

  useEffect(() => {
    const d = dialog.current;
    return () => {
      if (d?.open) d.close();
    };
  }, []);

  return (
    <>
      <button
        type="button"
        className="button touch"
        aria-haspopup="dialog"
        onClick={() => dialog.current?.showModal()}
      >
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          <path
            d="M4 8h13l-3-3M20 16H7l3 3"
            fill="none"
            stroke="currentColor"
            strokeWidth="2.2"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
        {t('workcenter.switchMachine')}
      </button>
      <dialog ref={dialog} className="switcher" aria-labelledby={`${id}-title`}>
        <div className="switcher__head">
          <h2 id={`${id}-title`}>{t('workcenter.switcherHeading')}</h2>
          <button type="button" className="button touch" onClick={close}>
            {t('common.close')}
          </button>
        </div>
        <GroupSelect
          className="touch-select"
          groups={groups}
          value={knownGroup}
          onChange={(g) => {
            setGroup(g);
            storeGroup(g);
          }}
        />
        {shown.length === 0 ? (
          <p className="notice">{t('workcenter.noMachinesInGroup')}</p>
        ) : (
          <ul className="switcher__list">
            {shown.map((m) => (
              <li key={m.id}>
                <Link
                  to={hrefFor(m.id)}
                  className="switcher__item"
                  aria-current={m.id === currentId ? 'page' : undefined}
                  onClick={close}
                >
                  {m.name}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </dialog>
    </>
  );
}

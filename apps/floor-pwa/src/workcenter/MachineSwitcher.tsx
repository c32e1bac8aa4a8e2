import { GroupSelect, Link, machinesInGroup, t, useLocation } from '@takt/ui';
import type { LiveMachine } from '@takt/ui';
import { useEffect, useId, useRef, useState } from 'react';
import { localStore, readStoredGroup, storeGroup, switchMachineHref } from './machineSwitch';

export interface MachineSwitchListProps {
  machines: readonly LiveMachine[];
  groups: readonly { id: string; name: string }[];
  /** The machine on screen (null on /switch-machines without one). */
  currentId: string | null;
  onPick?: () => void;
}

/**
 * The machine switch (live-operations §2): filter by machine group or All Machines (kept in local storage);
 * each machine links to the current URL with its id swapped in. Used by the toolbar's dialog and by the
 * /switch-machines page.
 */
export function MachineSwitchList({ machines, groups, currentId, onPick }: MachineSwitchListProps) {
  const { pathname, search } = useLocation();
  const [group, setGroup] = useState<string | null>(() => readStoredGroup(localStore()));
  const knownGroup = group && groups.some((g) => g.id === group) ? group : null;
  const shown = machinesInGroup(machines, knownGroup);
  return (
    <>
      <GroupSelect
        className="touch-select"
        groups={groups}
        value={knownGroup}
        onChange={(g) => {
          setGroup(g);
          storeGroup(localStore(), g);
        }}
      />
      {shown.length === 0 ? (
        <p className="notice">{t('workcenter.noMachinesInGroup')}</p>
      ) : (
        <ul className="switcher__list">
          {shown.map((m) => (
            <li key={m.id}>
              <Link
                to={switchMachineHref(pathname, search, currentId, m.id)}
                className="switcher__item"
                aria-current={m.id === currentId ? 'page' : undefined}
                onClick={onPick}
              >
                {m.name}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export interface MachineSwitcherProps {
  machines: readonly LiveMachine[];
  groups: readonly { id: string; name: string }[];
  currentId: string;
}

/** The toolbar's machine switch button and its dialog. */
export function MachineSwitcher({ machines, groups, currentId }: MachineSwitcherProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
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
        <MachineSwitchList machines={machines} groups={groups} currentId={currentId} onPick={close} />
      </dialog>
    </>
  );
}

import { Link, navigate, t, useLocation, useSession, useToasts, withSearchParam } from '@takt/ui';
import { useEffect, useId, useRef, useState } from 'react';
import { dashboardPath } from '../routes';
import { readTabletDevice, remoteIdentifierOf } from '../tablet/device';
import { localStore } from './machineSwitch';

/**
 * The workcenter menu (live-operations §2): Dashboard, TV Mode toggle, Remote Identifier, go-home to "/".
 * A disclosure (button + list), so keyboard and screen readers need no custom menu semantics.
 * Tablet mode hides Dashboard and TV Mode.
 */

export function WorkcenterMenu({ tablet = false }: { tablet?: boolean }) {
  const toasts = useToasts();
  const { me } = useSession();
  const { pathname, search, query } = useLocation();
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const tv = query.get('tv') === '1';

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        button.current?.focus();
      }
    };
    const onPointer = (e: PointerEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  const toggleTv = () => {
    setOpen(false);
    navigate(pathname + withSearchParam(search, 'tv', tv ? null : '1'), { replace: true });
  };

  return (
    <div className="menu" ref={root}>
      <button
        ref={button}
        type="button"
        className="button touch"
        aria-expanded={open}
        aria-controls={`${id}-menu`}
        onClick={() => setOpen((o) => !o)}
      >
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          <path d="M3 6h18M3 12h18M3 18h18" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" />
        </svg>
        {t('workcenter.menu')}
      </button>
      <ul className="menu__list" id={`${id}-menu`} hidden={!open}>
        {!tablet && (
          <li>
            <Link to={dashboardPath('utilization')} className="menu__item" onClick={() => setOpen(false)}>
              {t('workcenter.menuDashboard')}
            </Link>
          </li>
        )}
        {!tablet && (
          <li>
            <button type="button" className="menu__item" aria-pressed={tv} onClick={toggleTv}>
              {t('workcenter.menuTvMode')}
              {/* aria-pressed already tells assistive tech; the words are for the eye. */}
              <span className="menu__state" aria-hidden="true">
                {tv ? t('common.on') : t('common.off')}
              </span>
            </button>
          </li>
        )}
        <li>
          <button
            type="button"
            className="menu__item"
            onClick={() => {
              setOpen(false);
              const name = remoteIdentifierOf(readTabletDevice(localStore()), me);
              toasts.show({
                id: 'remote-identifier',
                message: `${t('workcenter.remoteIdentifier')}: ${name ?? t('workcenter.remoteIdentifierNone')}`,
              });
            }}
          >
            {t('workcenter.remoteIdentifier')}
          </button>
        </li>
        <li>
          <Link to="/" className="menu__item" onClick={() => setOpen(false)}>
            {t('workcenter.menuHome')}
          </Link>
        </li>
      </ul>
    </div>
  );
}

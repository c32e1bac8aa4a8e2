import { t } from '@takt/ui';
import type { LiveChannelStatus } from '@takt/ui';
import { useEffect } from 'react';
import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router';
import { useMachineNames } from '../reports/hooks';
import { machineToolPath, PATHS } from '../routes';
import type { MachineTool } from '../routes';
import './machine-tools.css';

const TOOLS: readonly MachineTool[] = ['diagnostics', 'conditions', 'export'];

const TOOL_TITLE: Record<MachineTool, Parameters<typeof t>[0]> = {
  diagnostics: 'machineTools.diagnostics.title',
  conditions: 'machineTools.conditions.title',
  export: 'machineTools.export.title',
};

const TOOL_TAB: Record<MachineTool, Parameters<typeof t>[0]> = {
  diagnostics: 'machineTools.tab.diagnostics',
  conditions: 'machineTools.tab.conditions',
  export: 'machineTools.tab.export',
};

/** The live channel's state in words and a dot (UI.md: never colour alone). */
export function LiveIndicator({ status }: { status: LiveChannelStatus }) {
  return (
    <p className="live-indicator" data-live={status} role="status">
      <span className="live-indicator__dot" aria-hidden="true" />
      {t(`machineTools.live.${status}`)}
    </p>
  );
}

/**
 * The frame of the three machine pages (reports-admin §2): the machine's name in the title, the way back to
 * the Machines page, tabs between the three pages and, for the live ones, the channel's state.
 */
export function MachineToolsFrame({
  machineId,
  tool,
  live,
  busy,
  children,
}: {
  machineId: string;
  tool: MachineTool;
  live?: LiveChannelStatus | null;
  busy?: boolean;
  children: ReactNode;
}) {
  const names = useMachineNames();
  const name = names.machines.find((m) => m.id === machineId)?.name ?? '…';
  const title = t(TOOL_TITLE[tool], { name });
  useEffect(() => {
    document.title = `${title} · ${t('app.officeName')}`;
  }, [title]);

  return (
    <main
      className="page machine-tools"
      aria-labelledby="machine-tools-heading"
      aria-busy={busy || undefined}
    >
      <p className="machine-tools__back">
        <Link to={PATHS.machines}>{t('machineTools.backToMachines')}</Link>
      </p>
      <div className="page__head">
        <h1 id="machine-tools-heading">{title}</h1>
        {live && <LiveIndicator status={live} />}
      </div>
      <nav className="machine-tools__tabs" aria-label={t('machineTools.tabs', { name })}>
        <ul>
          {TOOLS.map((k) => (
            <li key={k}>
              <NavLink to={machineToolPath(k, machineId)} end>
                {t(TOOL_TAB[k])}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      {children}
    </main>
  );
}

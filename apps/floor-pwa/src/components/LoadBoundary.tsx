import { t } from '@takt/ui';
import { Component } from 'react';
import type { ReactNode } from 'react';

/**
 * Around the parts the workcenter loads on first use (overlays, underlay, live channel): if one cannot be
 * loaded (offline before the service worker had cached it), the screen keeps working and says so, instead of
 * React unmounting the whole app (UI.md: nothing freezes; offline is a normal state). "Try again" reloads: a
 * failed dynamic import is remembered by the module loader, and the reload is served by the service worker.
 */
export class LoadBoundary extends Component<
  {
    children: ReactNode;
    onDismiss?: () => void;
    quiet?: boolean;
    /** A change (the route's path) clears a failure, without remounting what is shown. */
    resetKey?: string;
  },
  { failed: boolean; resetKey: string | undefined }
> {
  override state = { failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  static getDerivedStateFromProps(
    props: { resetKey?: string },
    state: { failed: boolean; resetKey: string | undefined },
  ): { failed: boolean; resetKey: string | undefined } | null {
    return props.resetKey === state.resetKey ? null : { failed: false, resetKey: props.resetKey };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    if (this.props.quiet) return null;
    return (
      <div className="notice load-failed" role="alert">
        <p>{t('common.partNotLoaded')}</p>
        <div className="modal__buttons">
          {this.props.onDismiss && (
            <button
              type="button"
              className="button touch"
              onClick={() => {
                this.setState({ failed: false });
                this.props.onDismiss?.();
              }}
            >
              {t('common.close')}
            </button>
          )}
          <button type="button" className="button button--primary touch" onClick={() => location.reload()}>
            {t('common.retry')}
          </button>
        </div>
      </div>
    );
  }
}

import { Modal, t } from '@takt/ui';
import { useId, useRef, useState } from 'react';
import type { IssuedToken } from './gateways';

// The push token issued at create or reset, shown this once: the server keeps only its hash
// (services/api/src/services/gateways.ts), so closing this dialog loses it for good.

export function TokenDialog({ issued, onClose }: { issued: IssuedToken; onClose: () => void }) {
  const id = useId();
  const input = useRef<HTMLTextAreaElement>(null);
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');

  const copyToken = async () => {
    try {
      await navigator.clipboard.writeText(issued.token);
      setCopy('copied');
    } catch {
      // No clipboard (plain http, or permission refused): select it so Ctrl+C works.
      input.current?.select();
      setCopy('failed');
    }
  };

  return (
    <Modal
      title={t('internal.gateways.tokenTitle', { name: issued.gateway.name })}
      onClose={onClose}
      className="gateway-token"
      footer={
        <div className="modal__buttons">
          <button type="button" className="button button--primary touch" onClick={onClose}>
            {t('internal.gateways.tokenDone')}
          </button>
        </div>
      }
    >
      <p>{t('internal.gateways.tokenIntro')}</p>
      <p className="notice notice--warning" role="note">
        <strong>{t('internal.gateways.tokenOnce')}</strong>
      </p>
      <div className="field">
        <label htmlFor={id}>{t('internal.gateways.tokenLabel')}</label>
        <div className="gateway-token__row">
          <textarea
            ref={input}
            id={id}
            className="admin__mono gateway-token__value"
            readOnly
            rows={2}
            spellCheck={false}
            value={issued.token}
            onFocus={(e) => e.currentTarget.select()}
          />
          <button type="button" className="button touch" onClick={() => void copyToken()}>
            {t('internal.gateways.copy')}
          </button>
        </div>
        <p className={copy === 'failed' ? 'field__error' : 'admin__hint'} role="status">
          {copy === 'copied'
            ? t('internal.gateways.copied')
            : copy === 'failed'
              ? t('internal.gateways.copyFailed')
              : ''}
        </p>
      </div>
    </Modal>
  );
}

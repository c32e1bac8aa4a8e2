import { RingChart, t } from '@takt/ui';
import { useEffect, useRef, useState } from 'react';
import './tablet.css';
import {
  activate,
  deviceSerial,
  formatRemaining,
  parseTabletAuthMessage,
  RECONNECT_DELAY_MS,
  REDIRECT_DELAY_MS,
  remainingPercent,
  stepIndex,
  STEPS,
  tabletAuthUrl,
  TICK_MS,
} from './registration';
import type { Step } from './registration';
import { writeTabletDevice } from './device';

interface CodeState {
  code: string;
  /** Expiry on this device's clock (the server's expiresIn from when the code arrived). */
  localExpiry: number;
  ttl: number;
}

const safeStorage = () => {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
};

/**
 * /tablet/register (live-operations §2): the tablet connects, shows a code with a countdown ring ticking every
 * 100 ms (a new code at expiry), is associated by an admin, receives its device token, activates it and
 * goes to its machine 3 s later.
 */
export function TabletRegisterPage() {
  const [step, setStep] = useState<Step>('connecting');
  const [code, setCode] = useState<CodeState | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const [error, setError] = useState<string | null>(null);
  const [redirectTo, setRedirectTo] = useState<string | null>(null);
  const socket = useRef<WebSocket | null>(null);
  const asked = useRef<number>(0);
  const registered = useRef(false);

  useEffect(() => {
    document.title = `${t('tabletRegister.title')} · ${t('app.name')}`;
  }, []);

  // The socket, reconnecting every 4 s until registered.
  useEffect(() => {
    const serial = deviceSerial(safeStorage());
    let closed = false;
    let retry: ReturnType<typeof setTimeout> | null = null;
    const open = () => {
      const ws = new WebSocket(tabletAuthUrl(window.location));
      socket.current = ws;
      ws.onopen = () => ws.send(JSON.stringify({ event: 'get_code', serial_number: serial }));
      ws.onmessage = (evt) => {
        const m = parseTabletAuthMessage(evt.data);
        if (!m) return;
        if (m.event === 'send_code') {
          // A new code answers whatever was refused before (a limit reached, decision 0992).
          setError(null);
          setCode({ code: m.code, localExpiry: Date.now() + m.expiresIn, ttl: m.expiresIn });
          setStep((s) => (stepIndex(s) <= stepIndex('code') ? 'code' : s));
        } else if (m.event === 'associated') {
          setStep('associated');
        } else if (m.event === 'registered') {
          registered.current = true;
          setStep('registered');
          activate(m.token)
            .then(({ redirectTo: to, device }) => {
              // Tablet mode from now on: the workcenter reads this (device.ts).
              if (device) writeTabletDevice(safeStorage(), device);
              setStep('activated');
              setRedirectTo(to);
            })
            .catch((e: unknown) => {
              setStep('failed');
              setError(e instanceof Error ? e.message : String(e));
            });
        } else if (m.event === 'error') {
          setError(m.message);
        }
      };
      ws.onclose = () => {
        if (socket.current === ws) socket.current = null;
        if (!closed && !registered.current) {
          setStep((s) => (s === 'code' ? 'connecting' : s));
          retry = setTimeout(open, RECONNECT_DELAY_MS);
        }
      };
    };
    open();
    return () => {
      closed = true;
      if (retry) clearTimeout(retry);
      socket.current?.close();
    };
  }, []);

  // The countdown: a tick every 100 ms; at expiry, ask for a new code (once per code).
  useEffect(() => {
    if (step !== 'code' || !code) return;
    const timer = setInterval(() => {
      const t = Date.now();
      setNow(t);
      if (t >= code.localExpiry && asked.current !== code.localExpiry && socket.current?.readyState === 1) {
        asked.current = code.localExpiry;
        socket.current.send(
          JSON.stringify({ event: 'get_code', serial_number: deviceSerial(safeStorage()) }),
        );
      }
    }, TICK_MS);
    return () => clearInterval(timer);
  }, [step, code]);

  // Activated: go to the machine 3 s later.
  useEffect(() => {
    if (!redirectTo) return;
    const timer = setTimeout(() => window.location.assign(redirectTo), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [redirectTo]);

  const remaining = code ? Math.max(0, code.localExpiry - now) : 0;
  const current = stepIndex(step);

  return (
    <main className="center-screen tablet-register" aria-labelledby="tablet-register-heading">
      <h1 id="tablet-register-heading">{t('tabletRegister.title')}</h1>
      {step === 'code' || step === 'connecting' ? (
        <section className="tablet-register__code" aria-label={t('tabletRegister.codeRegion')}>
          <p>{t('tabletRegister.instructions')}</p>
          <div className="tablet-register__ring">
            <RingChart
              percent={code ? remainingPercent(now, code.localExpiry, code.ttl) : 0}
              label={
                code
                  ? t('tabletRegister.expiresIn', { remaining: formatRemaining(remaining) })
                  : t('tabletRegister.waitingForCode')
              }
              status={remaining < 30_000 ? 'warning' : 'success'}
              size={280}
            >
              <span className="tablet-register__remaining">{code ? formatRemaining(remaining) : '…'}</span>
            </RingChart>
          </div>
          <p role="status" className="tablet-register__value" aria-live="polite">
            {code && step === 'code' ? code.code : t('tabletRegister.connecting')}
          </p>
        </section>
      ) : (
        <p role="status" className="tablet-register__value tablet-register__value--done" aria-live="polite">
          {step === 'activated'
            ? t('tabletRegister.activated')
            : step === 'failed'
              ? t('tabletRegister.failed')
              : step === 'registered'
                ? t('tabletRegister.registered')
                : t('tabletRegister.associated')}
        </p>
      )}
      {error && (
        <p role="alert" className="tablet-register__error">
          {error}
        </p>
      )}
      <ol className="tablet-register__steps" aria-label={t('tabletRegister.steps')}>
        {STEPS.map((s, i) => (
          <li
            key={s.step}
            data-state={i < current || step === 'activated' ? 'done' : i === current ? 'current' : 'todo'}
            aria-current={i === current ? 'step' : undefined}
          >
            {t(s.label)}
          </li>
        ))}
        <li data-state={redirectTo ? 'current' : 'todo'}>{t('tabletRegister.step.open')}</li>
      </ol>
    </main>
  );
}

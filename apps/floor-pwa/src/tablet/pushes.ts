import { useEffect } from 'react';
import { localStore } from '../workcenter/machineSwitch';
import { readTabletDevice } from './device';
import { pushAction, RECONNECT_DELAY_MS, tabletAuthUrl } from './registration';

// A registered tablet listens for its admin's refresh and restart (reports-admin §2 Tablets; live-operations
// §7 tablet-auth socket): it joins /tablet-auth with its tablet cookie on every page, not only while it
// registers, and reconnects after a lost connection like the registration page does, so the office's push
// reaches it whatever it shows. A browser that is not a registered tablet opens no socket.
export function useTabletPushes(): void {
  useEffect(() => {
    if (!readTabletDevice(localStore())) return;
    let ws: WebSocket | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const connect = () => {
      const socket = new WebSocket(tabletAuthUrl(window.location));
      ws = socket;
      socket.onopen = () => socket.send(JSON.stringify({ event: 'join' }));
      socket.onmessage = (e) => {
        const action = pushAction(e.data);
        if (action === 'reload') window.location.reload();
        else if (action === 'restart') window.location.replace('/');
      };
      socket.onclose = () => {
        if (!stopped) retry = setTimeout(connect, RECONNECT_DELAY_MS);
      };
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      ws?.close();
    };
  }, []);
}

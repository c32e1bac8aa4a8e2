// A real MQTT broker for the ingest tests: the local Mosquitto on 127.0.0.1:1883 when one answers, else a
// `mosquitto -p <free port>` child process. Tests never skip for want of a broker: without one and without
// the binary they fail with a message saying what to install. Not used at runtime.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';

export const MOSQUITTO_BINARY = '/usr/sbin/mosquitto';
/** The Debian package that provides the broker (scripts/test.mjs installs it when missing). */
export const MOSQUITTO_PACKAGE = 'mosquitto';

export interface TestBroker {
  url: string;
  port: number;
  /** stops the broker if this helper started it; the shared local broker is left alone */
  stop(): Promise<void>;
}

/** True when something on host:port answers an MQTT CONNECT with a CONNACK. */
export function mqttAnswers(port: number, host = '127.0.0.1', timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const finish = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.on('error', () => finish(false));
    socket.on('connect', () => {
      // CONNECT, MQTT 3.1.1, clean session, keepalive 10 s, client id "probe"
      const clientId = Buffer.from('takt-probe');
      const body = Buffer.concat([
        Buffer.from([0x00, 0x04, 0x4d, 0x51, 0x54, 0x54, 0x04, 0x02, 0x00, 0x0a]),
        Buffer.from([clientId.length >> 8, clientId.length & 0xff]),
        clientId,
      ]);
      socket.write(Buffer.concat([Buffer.from([0x10, body.length]), body]));
    });
    socket.on('data', (data) => finish(data[0] === 0x20));
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = address && typeof address !== 'string' ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Starts a private Mosquitto on `port` (a free one by default) and waits until it answers. */
export async function startMosquitto(port?: number): Promise<TestBroker> {
  if (!existsSync(MOSQUITTO_BINARY)) {
    throw new Error(
      `No MQTT broker for the tests: ${MOSQUITTO_BINARY} is missing. Install the Debian package ` +
        `"${MOSQUITTO_PACKAGE}" (apt-get install ${MOSQUITTO_PACKAGE}) or run one on 127.0.0.1:1883.`,
    );
  }
  const chosen = port ?? (await freePort());
  const child: ChildProcess = spawn(MOSQUITTO_BINARY, ['-p', String(chosen)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 5_000;
  while (!(await mqttAnswers(chosen, '127.0.0.1', 200))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`mosquitto -p ${chosen} did not start: ${stderr.trim() || 'no answer within 5 s'}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `mqtt://127.0.0.1:${chosen}`,
    port: chosen,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The local broker on 127.0.0.1:1883 when it answers, else a private one (see startMosquitto). */
export async function ensureMosquitto(): Promise<TestBroker> {
  if (await mqttAnswers(1883)) return { url: 'mqtt://127.0.0.1:1883', port: 1883, stop: async () => {} };
  return startMosquitto();
}

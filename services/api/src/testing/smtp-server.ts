import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

// A real SMTP server (the smtp-server package, decision 0903) on a local port for the notification tests: the
// messages nodemailer hands over are received as an SMTP server receives them, envelope and raw message.

export interface SmtpMessage {
  from: string;
  to: string[];
  subject: string;
  raw: string;
}

export interface TestSmtpServer {
  url: string;
  received: SmtpMessage[];
  /** Refuse every message with a permanent error from now on (the failure path). */
  refuse(on: boolean): void;
  close(): Promise<void>;
}

/** The Subject header of a raw message, unfolded; nodemailer writes plain ASCII subjects as they are. */
const subjectOf = (raw: string): string =>
  /^Subject: (.*(?:\r\n[ \t].*)*)/im.exec(raw)?.[1]?.replace(/\r\n[ \t]/g, ' ') ?? '';

export async function startSmtpServer(): Promise<TestSmtpServer> {
  const received: SmtpMessage[] = [];
  let refusing = false;
  const server = new SMTPServer({
    // Plain SMTP on localhost: no TLS upgrade, no login.
    disabledCommands: ['STARTTLS', 'AUTH'],
    hideSTARTTLS: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (refusing) {
          callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const from = session.envelope.mailFrom;
        received.push({
          from: from ? from.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          subject: subjectOf(raw),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuse: (on) => {
      refusing = on;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

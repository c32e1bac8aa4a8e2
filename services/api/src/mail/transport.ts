import nodemailer from 'nodemailer';

// How a message leaves the API (decision 0701): by SMTP when TAKT_SMTP_URL is set, otherwise nowhere: the
// message is only kept in the mail_outbox table, where an operator (or a test) can read it.

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

export interface MailTransport {
  readonly kind: 'outbox' | 'smtp';
  /** Hand the message over; throws when the server refuses it or cannot be reached. */
  deliver(mail: OutgoingMail): Promise<void>;
}

/** No SMTP server configured: the outbox row is the delivery. */
export const outboxTransport: MailTransport = { kind: 'outbox', deliver: async () => {} };

/** SMTP through nodemailer, e.g. `smtp://user:pass@mail.example:587` or `smtps://…:465`. */
export function smtpTransport(url: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport(url);
  return {
    kind: 'smtp',
    deliver: async (mail) => {
      await transporter.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}

/** The transport the environment asks for (env.ts TAKT_SMTP_URL, TAKT_MAIL_FROM). */
export function mailTransportFor(env: { TAKT_SMTP_URL?: string | undefined; TAKT_MAIL_FROM: string }) {
  return env.TAKT_SMTP_URL ? smtpTransport(env.TAKT_SMTP_URL, env.TAKT_MAIL_FROM) : outboxTransport;
}

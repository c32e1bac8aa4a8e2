import { describe, expect, it } from 'vitest';
import { parseEnv } from '../env';
import { mailTransportFor } from './transport';

// decision 0701: SMTP when TAKT_SMTP_URL is set, otherwise the stored outbox.

describe('mail transport from the environment', () => {
  it.each([
    [{}, 'outbox'],
    [{ TAKT_SMTP_URL: '' }, 'outbox'],
    [{ TAKT_SMTP_URL: 'smtp://127.0.0.1:2525' }, 'smtp'],
    [{ TAKT_SMTP_URL: 'smtps://user:secret@mail.example:465' }, 'smtp'],
  ])('%j → %s', (source, kind) => {
    expect(mailTransportFor(parseEnv(source)).kind).toBe(kind);
  });

  it('refuses an SMTP URL of another scheme, and defaults the From address', () => {
    expect(() => parseEnv({ TAKT_SMTP_URL: 'http://mail.example' })).toThrow(/TAKT_SMTP_URL/);
    expect(parseEnv({}).TAKT_MAIL_FROM).toBe('Takt <takt@localhost>');
  });
});

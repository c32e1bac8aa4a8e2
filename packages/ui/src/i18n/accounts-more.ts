// The login page's variants (reports-admin §2 "Login: device button and code option depending on query
// parameters"; decision 0935) and the profile's shift choice, spread into the English catalogue (en.ts).

export const accountsMore = {
  // "Use this device" (?device=1): an admin's e-mail and password register the browser as a tablet.
  'accountsMore.device.button': 'Use this device',
  'accountsMore.device.hint':
    "Makes this device a tablet of your company instead of logging you in. Needs an admin's e-mail and password.",
  'accountsMore.device.hintMachine':
    "Makes this device the tablet of this machine instead of logging you in. Needs an admin's e-mail and password.",
  'accountsMore.device.registering': 'Registering…',
  'accountsMore.device.done': 'This device is registered. Opening its screen…',

  // The code option (?code): a one-time code e-mailed to the user.
  'accountsMore.code.option': 'Sign in with a code instead',
  'accountsMore.code.passwordOption': 'Sign in with a password instead',
  'accountsMore.code.intro': 'We e-mail you a 6-digit code. It works once, for 10 minutes.',
  'accountsMore.code.send': 'E-mail me a code',
  'accountsMore.code.sending': 'Sending…',
  'accountsMore.code.resend': 'Send a new code',
  'accountsMore.code.label': 'Code from the e-mail',
  'accountsMore.code.required': 'Enter the code from the e-mail.',
  'accountsMore.code.submit': 'Sign in',
  'accountsMore.code.submitting': 'Signing in…',

  // The profile's shift choice filters machine e-mails by the shift an episode began in (decision 0936).
  'accountsMore.profile.byStart':
    'A downtime or low utilization is e-mailed when it began in one of these shifts, even if it lasts into the next.',
} as const;

// E-mail texts (reports-admin §2 "E-mail notification preferences", §3 Machine notification, §8 "E-mail"),
// spread into the English catalogue (en.ts). The §8 texts are verbatim; keep them so.

export const email = {
  // E-mail notification preferences (reports-admin §2; GET and PUT /api/emailnotifications).
  'email.nav': 'E-mail',
  'email.title': 'E-mail notifications',
  'email.intro':
    'Choose which e-mails Takt sends you. Machine notifications name who is told about a machine; these switches decide whether you receive them.',
  'email.preferences': 'E-mails you receive',
  'email.downtime': 'Downtime e-mails',
  'email.downtimeHint':
    'When a machine that names you in its notifications has been down longer than its delay.',
  'email.utilization': 'Utilization e-mails',
  'email.utilizationHint':
    'When the utilization of such a machine stays below its level longer than its delay.',
  'email.benchmarking': 'Benchmarking e-mails',
  'email.benchmarkingHint': 'How your plant compares with others.',
  'email.saving': 'Saving…',
  // reports-admin §8 E-mail, verbatim.
  'email.saved': 'Your preferences have been updated.',
  'email.sent': 'Sent. You should get it within the next 10 minutes.',
  'email.failed': 'Something went wrong. Please try again.',
  'email.test': 'Test e-mail',
  'email.testBody': 'Send yourself a test e-mail to check that e-mail from Takt reaches {email}.',
  'email.sendTest': 'Send test e-mail',
  'email.sending': 'Sending…',

  // The machines admin Notifications panel (reports-admin §2, §3 Machine notification).
  'email.machine.panel': 'Notifications',
  'email.machine.intro':
    'Who gets an e-mail when this machine is down or its utilization is low, and after how many minutes. One e-mail per stoppage or low spell.',
  'email.machine.newFirst': 'Save the machine first; then add its notifications here.',
  'email.machine.empty': 'No one is notified about this machine.',
  'email.machine.list': 'Notifications of this machine',
  'email.machine.add': 'Add notification',
  'email.machine.edit': 'Edit',
  'email.machine.editNamed': 'Edit the {type} notification of {name}',
  'email.machine.remove': 'Remove',
  'email.machine.removeNamed': 'Remove the {type} notification of {name}',
  'email.machine.save': 'Save notification',
  'email.machine.cancel': 'Cancel',
  'email.machine.saving': 'Saving…',
  'email.machine.saved': 'Notifications saved.',
  'email.machine.saveFailed': 'The notifications could not be saved.',
  'email.machine.loadFailed': 'The notifications could not be loaded.',
  'email.machine.account': 'Account',
  'email.machine.accountPick': 'Choose an account',
  'email.machine.accountMissing': 'Missing required field: Account',
  'email.machine.accountTaken': 'This account already has a {type} notification for this machine.',
  'email.machine.unknownAccount': 'Unknown account',
  'email.machine.type': 'Type',
  'email.machine.type.downtime': 'Downtime',
  'email.machine.type.utilization': 'Utilization',
  'email.machine.level': 'Level',
  'email.machine.level.warning': 'Warning',
  'email.machine.level.failure': 'Failure',
  'email.machine.levelHint.downtime':
    'Warning: as soon as the machine is down. Failure: once its tile turns danger (the Downtime panel’s minutes).',
  'email.machine.levelHint.utilization':
    'Warning: below the company’s utilization warning percent. Failure: below its failure percent.',
  'email.machine.delay': 'Delay (minutes)',
  'email.machine.delayHint': 'How long the condition must last before the e-mail is sent.',
  'email.machine.delayRange': 'The delay must be from 0 to {max} minutes',
  'email.machine.summary': '{type} · {level} · after {minutes} min',
} as const;

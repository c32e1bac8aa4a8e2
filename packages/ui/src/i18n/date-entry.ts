// Typed date and time entry and the calendar's bounds (live-operations §5, reports-admin §5, decision 1092).
// Spread into the office catalogue (office-texts.ts).
export const dateEntry = {
  'dateEntry.time': '{label} time',
  'dateEntry.dateFormat': 'Enter the date as {L} or {l}.',
  'dateEntry.timeHint': 'HH:mm, HH:mm:ss or HH:mm:ss.SSS',
  'dateEntry.timeHint12': 'h:mm AM, h:mm:ss PM or h:mm:ss.SSS PM',
  'dateEntry.time.format': 'Enter the time as {format}.',
  'dateEntry.time.hours': 'Hours go up to 23.',
  'dateEntry.time.hours12': 'Hours go from 1 to 12.',
  'dateEntry.time.minutes': 'Minutes go up to 59.',
  'dateEntry.time.seconds': 'Seconds go up to 59.',
  'dateEntry.time.milliseconds': 'Milliseconds go up to 999.',
  'dateEntry.time.meridiem': 'Add AM or PM.',
  'dateEntry.time.meridiem24': 'Enter a 24-hour time, without AM or PM.',
  'dateEntry.invalidMin': 'Not before {min}.',
  'dateEntry.invalidMax': 'Not after {max}.',
} as const;

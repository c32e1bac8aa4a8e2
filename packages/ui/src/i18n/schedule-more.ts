// The schedule's second form and its bar labels (reports-admin §2 "two forms: with shifts, and with setup-stage
// labor activities"; §3 Labor activity; §5 "with setup stages, non-none setup needs at least one saved labor
// activity with a stage"; decision 0940), spread into the English catalogue (en.ts).

export const scheduleMore = {
  'scheduleMore.form.plan': 'Plan the run with',
  'scheduleMore.form.planShifts': 'Shifts',
  'scheduleMore.form.planStages': 'Setup stages',
  'scheduleMore.form.setupTotal': 'Setup time (min)',
  'scheduleMore.form.stages': 'Setup stages',
  'scheduleMore.form.stagesHint':
    'Each stage takes its share of the setup time, in stage order; production follows.',
  'scheduleMore.form.stage': 'Stage',
  'scheduleMore.form.share': 'Share',
  'scheduleMore.form.minutes': 'Minutes',
  'scheduleMore.form.time': 'Time',
  'scheduleMore.form.production': 'Production',
  'scheduleMore.form.productionFrom': 'from {from}',
  'scheduleMore.form.noStages': 'No setup stages configured.',
  'scheduleMore.form.stagesLink': 'Set up the stages',
  'scheduleMore.form.stagesNotOn': 'Setup stages are off for the company: the floor app will not show them.',
  'scheduleMore.bar.title': '{job} on {machine}, {from} to {to}',
  'scheduleMore.rule.setupTimePositive': 'Setup time must be more than 0 minutes',
  'scheduleMore.rule.stageRequired': 'A run that starts in setup needs at least one setup stage',
  'scheduleMore.rule.setupPastEnd': 'The setup must end by the end of the run',
} as const;

// The Tablets screen and the machine form's Software and Utilization panels and adapter reset, in the office
// app (live-operations §2 "Tablet management", §8 tablet texts; reports-admin §2 "Machines admin", §4 adapter
// reset, §8 "Tablet refresh", "Purge"). Spread into the one catalogue (en.ts); texts the spec quotes are
// verbatim.
export const adminTablets = {
  // Tablets
  'admin.tablets.title': 'Tablets',
  'admin.tablets.blurb':
    'Register the floor tablets and kiosks, refresh or restart them, revoke their access.',
  'admin.tablets.intro':
    'A tablet opening /tablet/register shows a code. Register it here with that code; it then opens its machine by itself.',
  'admin.tablets.caption': 'Registered tablets',
  'admin.tablets.empty':
    'No tablets registered yet. Open /tablet/register on a tablet and register its code.',
  'admin.tablets.register': 'Register tablet',
  'admin.tablets.registerTitle': 'Register a tablet',
  'admin.tablets.registerSubmit': 'Register',
  'admin.tablets.registerFailed': 'The tablet could not be registered.',
  'admin.tablets.editFailed': 'The tablet could not be saved.',
  'admin.tablets.editTitle': 'Edit {name}',
  'admin.tablets.code': 'Code',
  'admin.tablets.codeHint': 'The six characters the tablet shows, e.g. K7P2QX.',
  'admin.tablets.remoteIdentifier': 'Remote Identifier',
  'admin.tablets.remoteIdentifierHint': 'A name to tell this tablet apart, e.g. Lathe front.',
  'admin.tablets.machine': 'Machine',
  'admin.tablets.machineAny': 'Any machine (not bound)',
  'admin.tablets.machineHint': 'A tablet bound to a machine opens it and acts on it only.',
  // A TV is registered like a tablet, with a live board to show (decision 1041).
  'admin.tablets.view': 'Shows',
  'admin.tablets.viewHint':
    'A TV shows its live board without anyone logged in, view only; open /tablet/register on it to get its code.',
  'admin.tablets.view.workcenter': 'Workcenter (operator tablet)',
  'admin.tablets.view.board': 'TV: {board} board',
  'admin.tablets.serial': 'Serial number',
  'admin.tablets.lastSeen': 'Last seen',
  'admin.tablets.never': 'Never',
  'admin.tablets.state.pending': 'Pending',
  'admin.tablets.state.associated': 'Registered, not yet active',
  'admin.tablets.state.active': 'Active',
  'admin.tablets.state.revoked': 'Revoked',
  'admin.tablets.registered': '{name} registered.',
  'admin.tablets.registeredUnreached':
    '{name} registered, but the tablet did not answer. Check it is on and still shows its code.',
  'admin.tablets.refresh': 'Refresh',
  'admin.tablets.refreshNamed': 'Refresh {name}',
  'admin.tablets.refreshed': '{name} is reloading.',
  'admin.tablets.restart': 'Restart',
  'admin.tablets.restartNamed': 'Restart {name}',
  'admin.tablets.restarted': '{name} is restarting.',
  'admin.tablets.revoke': 'Revoke',
  'admin.tablets.revokeNamed': 'Revoke {name}',
  'admin.tablets.revokeBody': 'The tablet loses access at once and has to be registered again.',
  'admin.tablets.revokedDone': '{name} revoked.',
  'admin.tablets.revokeFailed': 'The tablet could not be revoked.',
  'admin.tablets.deleteBody': 'The tablet is removed from the list and loses access at once.',
  'admin.tablets.deleteFailed': 'The tablet could not be deleted.',
  // live-operations §8: the single-tablet alerts; the server names the tablet.
  'admin.tablets.refreshOneFailed': 'Unable to refresh tablet {name}',
  'admin.tablets.restartOneFailed': 'Unable to restart application on tablet {name}',
  'admin.tablets.refreshAll': 'Refresh all',
  // live-operations §8 "Refreshing All Tablets" on success, "Error: " plus message on failure, and the dialog
  // "Unable to refresh one or more tablets" listing the tablet ids not pushed.
  'admin.tablets.refreshAllOk': 'Refreshing All Tablets',
  'admin.tablets.refreshAllFailed': 'Unable to refresh one or more tablets',
  'admin.tablets.notPushedIntro': 'These tablets were not reached:',
  'admin.tablets.error': 'Error: {message}',
  'admin.tablets.purge': 'Purge',
  'admin.tablets.purgeTitle': 'Purge revoked tablets',
  'admin.tablets.purgeBody': 'Deletes every revoked tablet of the company ({count}).',
  // reports-admin §8 "Purge: … success '{count} tablets deleted'".
  'admin.tablets.purged': '{count} tablets deleted',
  'admin.tablets.idLabel': 'Tablet id',

  // Machines admin: Software and Utilization panels, adapter reset
  'admin.machines.panel.software': 'Software',
  'admin.machines.panel.utilization': 'Utilization',
  'admin.machines.resetAdapter': 'Reset adapter',
  'admin.machines.resetAdapterBody':
    'The machine’s adapter is set to none and Takt matches the data the machine sends to an adapter again. Are you sure?',
  'admin.machines.resetAdapterFailed': 'The adapter could not be reset.',
  'admin.machines.adapterStatus': 'Adapter status',
  // reports-admin §4 "Status text: Checking status, Waiting for workcenter, Gathering info, Problem configuring
  // machine."
  'admin.machines.adapterStatus.checking': 'Checking status',
  'admin.machines.adapterStatus.waiting': 'Waiting for workcenter',
  'admin.machines.adapterStatus.gathering': 'Gathering info',
  'admin.machines.adapterStatus.problem': 'Problem configuring machine',
  'admin.machines.adapterStatus.mapped': 'Adapter {name} in use',
  'admin.machines.dispatchKey': 'Dispatch key',
  'admin.machines.dispatchKeyHint':
    'The key the machine’s program sends to start a job when autostart is by dispatch key.',
  'admin.machines.benchmarking': 'Benchmarking',
  // reports-admin §9 "Benchmarking: Undecided (null), Opt In (0), Opt Out (1)".
  'admin.machines.benchmarking.undecided': 'Undecided',
  'admin.machines.benchmarking.in': 'Opt In',
  'admin.machines.benchmarking.out': 'Opt Out',
  'admin.machines.pingMonitor': 'Ping monitor',
  'admin.machines.pingMonitor.unset': 'Not set',
  'admin.machines.pingMonitor.on': 'On',
  'admin.machines.pingMonitor.off': 'Off',
  'admin.machines.pingMonitorHint': 'Watches that the machine’s controller answers on the network.',
  'admin.machines.utilWarning': 'Warning below (%)',
  'admin.machines.utilFailure': 'Failure below (%)',
  'admin.machines.utilHint':
    'Leave empty to use the company’s percents. The tile turns warning, then danger, below these.',
  'admin.machines.utilWarningError': 'Utilization warning percent must be from 0 to 100',
  'admin.machines.utilFailureError': 'Utilization failure percent must be from 0 to 100',
  'admin.machines.utilOrderError': 'Utilization failure percent must not be above the warning percent',
  'admin.machines.resetAdapterConfirm': 'Reset',
  // reports-admin §6 "root sees extra machine options" (decisions 1111, 1112).
  'admin.machines.panel.internal': 'Takt staff',
  'admin.machines.internalHint': 'Only Takt staff (root users) see and change these.',
  'admin.machines.billingDate': 'Billing date',
  'admin.machines.billingDateHint': 'From 2014-06-01 to 1 year ahead.',
  'admin.machines.integratedAt': 'Integrated at',
  'admin.machines.integratedAtFirstData': 'Empty: the machine’s first data, {time}.',
  'admin.machines.integratedAtNoData': 'Empty: the machine’s first data (none yet).',
  'admin.machines.integratedAtError': 'Integrated at must be a date and time',
  'admin.machines.version': 'Version',
} as const;

// The anonymize switch (reports-admin §6, decision 1116) and the invite's brand (reports-admin §3 "Invitee:
// invitees list, role, brand_override", decision 1117), spread into the office texts (office-texts.ts).

export const userPreferencesTexts = {
  'anonymize.label': 'Anonymize',
  'anonymize.hint':
    'Show machines, operators and the company as Machine 1, Operator 1 and Company on the report screens and in their CSV files, to share them.',
  'anonymize.failed': 'Something went wrong. Please try again.',
  'invites.brand': 'Brand (optional)',
  'invites.brandHint':
    "A name shown instead of Takt in the invitation e-mail and in the invited users’ app header. Up to 40 letters, digits, spaces and . , & ' ( ) -",
  'invites.brandColumn': 'Brand',
} as const;

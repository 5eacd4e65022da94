import type { MailTranslation } from './mail.pl';

/* The e-mails in English. Same keys as mail.pl.ts (the type enforces it). */
export const mailEn: MailTranslation = {
  invitation: {
    subject: 'Invitation to watch the test: {{research}}',
    title: 'Invitation to watch a test',
    greeting: 'Hello,',
    invite: 'you are invited to watch the test “{{research}}” live.',
    window: 'Start: {{start}}. End: {{end}} (Polish time).',
    private: 'The link becomes active when the test starts. It is meant for you alone — please do not share it.',
    button: 'Watch the test',
  },
  recovery: {
    subject: '{{brand}} - Password recovery for user {{email}}',
    title: 'Password recovery',
    greeting: 'Hello {{email}},',
    request:
      'We received a request to recover the password for your account. To reset your password, follow the link below.',
    footer:
      'The link is valid for {{hours}} hours and works once. If you did not request a password recovery, you can ignore this e-mail.',
    button: 'Reset password',
  },
  alarm: {
    subject: '{{brand}} - ALARM: {{kind}} — {{research}}',
    title: 'Test alarm',
    raised: 'Test “{{research}}”{{furnace}}: {{kind}}{{subject}}.',
    since: 'Raised: {{at}} (Polish time).',
    details: 'Details: {{details}}.',
    repeat: 'Repeat no. {{count}}: the alarm has not been acknowledged yet.',
    acknowledge: "Acknowledge the alarm in the test's live view to stop the repeats.",
    button: 'Open the live view',
  },
  signup: {
    subject: '{{brand}} - {{email}} signed up and waits for approval',
    title: 'New account awaiting approval',
    created:
      '{{who}} created an account. It stays inactive, with no access to any research, until a superuser activates it.',
    approve:
      'To approve it, open the administration page, find the account and mark it active. If you do not know this person, delete the account.',
    button: 'Open administration',
  },
};

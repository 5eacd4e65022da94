/** Escapes text for HTML element content and attribute values. */
const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/** A plain, widely rendered HTML e-mail body: a heading, paragraphs and one button. */
export function layout(opts: { brand: string; title: string; paragraphs: string[]; button?: { label: string; href: string }; footer?: string }): string {
  const p = opts.paragraphs.map((t) => `<p style="margin:0 0 16px">${escapeHtml(t)}</p>`).join('');
  const button = opts.button
    ? `<p style="margin:24px 0"><a href="${escapeHtml(opts.button.href)}" style="background:#009688;color:#fff;padding:12px 20px;border-radius:4px;text-decoration:none;display:inline-block">${escapeHtml(opts.button.label)}</a></p>
       <p style="margin:0 0 16px;font-size:13px;color:#555">${escapeHtml(opts.button.href)}</p>`
    : '';
  const footer = opts.footer ? `<p style="margin:24px 0 0;font-size:12px;color:#777">${escapeHtml(opts.footer)}</p>` : '';
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(opts.title)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;color:#222;background:#f4f4f4;padding:24px">
<div style="max-width:560px;margin:auto;background:#fff;padding:24px;border-radius:6px">
<h2 style="margin:0 0 16px;color:#00796b">${escapeHtml(opts.brand)}</h2>
<h3 style="margin:0 0 16px">${escapeHtml(opts.title)}</h3>${p}${button}${footer}
</div></body></html>`;
}

export function resetPasswordEmail(opts: { brand: string; email: string; link: string; validHours: number }) {
  const subject = `${opts.brand} - Password recovery for user ${opts.email}`;
  const paragraphs = [
    `Hello ${opts.email},`,
    'We received a request to recover the password for your account. To reset your password, follow the link below.',
  ];
  const footer = `The link is valid for ${opts.validHours} hours and works once. If you did not request a password recovery, you can ignore this e-mail.`;
  return {
    subject,
    html: layout({ brand: opts.brand, title: 'Password recovery', paragraphs, button: { label: 'Reset password', href: opts.link }, footer }),
    text: `${paragraphs.join('\n\n')}\n\n${opts.link}\n\n${footer}\n`,
  };
}

/** To the superusers: someone signed up and waits for approval in /admin. */
export function signupApprovalEmail(opts: { brand: string; email: string; fullName: string | null; link: string }) {
  const who = opts.fullName ? `${opts.fullName} <${opts.email}>` : opts.email;
  const subject = `${opts.brand} - ${opts.email} signed up and waits for approval`;
  const paragraphs = [
    `${who} created an account. It stays inactive, with no access to any research, until a superuser activates it.`,
    'To approve it, open the administration page, find the account and mark it active. If you do not know this person, delete the account.',
  ];
  return {
    subject,
    html: layout({ brand: opts.brand, title: 'New account awaiting approval', paragraphs, button: { label: 'Open administration', href: opts.link } }),
    text: `${paragraphs.join('\n\n')}\n\n${opts.link}\n`,
  };
}

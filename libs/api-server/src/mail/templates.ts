import { fill, type Language, texts } from '@furnace/text';

/** Escapes text for HTML element content and attribute values. */
const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/** A plain, widely rendered HTML e-mail body in `lang`: a heading, paragraphs and one button. */
function layout(opts: {
  lang: Language;
  brand: string;
  title: string;
  paragraphs: string[];
  button?: { label: string; href: string };
  footer?: string;
}): string {
  const p = opts.paragraphs.map((t) => `<p style="margin:0 0 16px">${escapeHtml(t)}</p>`).join('');
  const button = opts.button
    ? `<p style="margin:24px 0"><a href="${escapeHtml(opts.button.href)}" style="background:#009688;color:#fff;padding:12px 20px;border-radius:4px;text-decoration:none;display:inline-block">${escapeHtml(opts.button.label)}</a></p>
       <p style="margin:0 0 16px;font-size:13px;color:#555">${escapeHtml(opts.button.href)}</p>`
    : '';
  const footer = opts.footer
    ? `<p style="margin:24px 0 0;font-size:12px;color:#777">${escapeHtml(opts.footer)}</p>`
    : '';
  return `<!doctype html><html lang="${opts.lang}"><head><meta charset="utf-8"><title>${escapeHtml(opts.title)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;color:#222;background:#f4f4f4;padding:24px">
<div style="max-width:560px;margin:auto;background:#fff;padding:24px;border-radius:6px">
<h2 style="margin:0 0 16px;color:#00796b">${escapeHtml(opts.brand)}</h2>
<h3 style="margin:0 0 16px">${escapeHtml(opts.title)}</h3>${p}${button}${footer}
</div></body></html>`;
}

/** Dates as each language writes them, in Polish time (the lab's). */
export function warsawDates(timeStyle: 'short' | 'medium'): Record<Language, Intl.DateTimeFormat> {
  return {
    pl: new Intl.DateTimeFormat('pl-PL', { timeZone: 'Europe/Warsaw', dateStyle: 'long', timeStyle }),
    en: new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Warsaw', dateStyle: 'long', timeStyle }),
  };
}

/** An e-mail with one button: its subject, the HTML body (layout) and the same words as plain text, the link after them. */
export function buttonEmail(opts: {
  lang: Language;
  brand: string;
  subject: string;
  title: string;
  paragraphs: string[];
  button: { label: string; href: string };
  footer?: string;
}) {
  const { subject, paragraphs, button, footer } = opts;
  return {
    subject,
    html: layout(opts),
    text: `${paragraphs.join('\n\n')}\n\n${button.href}\n${footer ? `\n${footer}\n` : ''}`,
  };
}

/** Which language each e-mail is written in: docs/behaviour.md §1; its words are the catalogue's `mail` namespace. */
export function resetPasswordEmail(opts: {
  brand: string;
  email: string;
  link: string;
  validHours: number;
  lang: Language;
}) {
  const t = texts(opts.lang).mail.recovery;
  const subject = fill(t.subject, { brand: opts.brand, email: opts.email });
  const paragraphs = [fill(t.greeting, { email: opts.email }), t.request];
  const footer = fill(t.footer, { hours: opts.validHours });
  return buttonEmail({
    lang: opts.lang,
    brand: opts.brand,
    subject,
    title: t.title,
    paragraphs,
    button: { label: t.button, href: opts.link },
    footer,
  });
}

/** To the superusers: someone signed up and waits for approval in /admin. */
export function signupApprovalEmail(opts: {
  brand: string;
  email: string;
  fullName: string | null;
  link: string;
  lang: Language;
}) {
  const t = texts(opts.lang).mail.signup;
  const who = opts.fullName ? `${opts.fullName} <${opts.email}>` : opts.email;
  const subject = fill(t.subject, { brand: opts.brand, email: opts.email });
  const paragraphs = [fill(t.created, { who }), t.approve];
  return buttonEmail({
    lang: opts.lang,
    brand: opts.brand,
    subject,
    title: t.title,
    paragraphs,
    button: { label: t.button, href: opts.link },
  });
}

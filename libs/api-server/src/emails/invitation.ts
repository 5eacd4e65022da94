import { fill, type Language, texts } from '@furnace/text';
import { layout } from '../mail/templates';

/** The dates as each language writes them, in Polish time (the lab's). */
const WARSAW: Record<Language, Intl.DateTimeFormat> = {
  pl: new Intl.DateTimeFormat('pl-PL', { timeZone: 'Europe/Warsaw', dateStyle: 'long', timeStyle: 'short' }),
  en: new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Warsaw', dateStyle: 'long', timeStyle: 'short' }),
};

/** The invitation a client receives, in `lang`: the research, its time window in Polish time, and their link. */
export function invitationEmail(opts: {
  brand: string;
  researchName: string;
  startAt: Date;
  endAt: Date;
  link: string;
  lang: Language;
}) {
  const t = texts(opts.lang).mail.invitation;
  const start = WARSAW[opts.lang].format(opts.startAt);
  const end = WARSAW[opts.lang].format(opts.endAt);
  const subject = fill(t.subject, { research: opts.researchName });
  const paragraphs = [
    t.greeting,
    fill(t.invite, { research: opts.researchName }),
    fill(t.window, { start, end }),
    t.private,
  ];
  return {
    subject,
    html: layout({
      lang: opts.lang,
      brand: opts.brand,
      title: t.title,
      paragraphs,
      button: { label: t.button, href: opts.link },
    }),
    text: `${paragraphs.join('\n\n')}\n\n${opts.link}\n`,
  };
}

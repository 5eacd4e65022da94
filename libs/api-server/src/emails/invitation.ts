import { fill, type Language, texts } from '@furnace/text';
import { buttonEmail, warsawDates } from '../mail/templates';

const WARSAW = warsawDates('short');

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
  return buttonEmail({
    lang: opts.lang,
    brand: opts.brand,
    subject,
    title: t.title,
    paragraphs,
    button: { label: t.button, href: opts.link },
  });
}

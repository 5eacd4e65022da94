import type { AlarmView } from '@furnace/contracts';
import { fill, type Language, texts } from '@furnace/text';
import { buttonEmail, warsawDates } from '../mail/templates';

const WARSAW = warsawDates('medium');

/** An alarm's message (docs/behaviour.md, "Alarms"), in `lang`: what, of which test, since when, and the link to its live view. */
export function alarmEmail(opts: {
  brand: string;
  alarm: AlarmView;
  researchName: string;
  furnaceName: string | null;
  link: string;
  lang: Language;
}) {
  const t = texts(opts.lang).mail.alarm;
  const kind = texts(opts.lang).live.alarms.kinds[opts.alarm.kind];
  const subject = fill(t.subject, { brand: opts.brand, kind, research: opts.researchName });
  const details = Object.entries(opts.alarm.details)
    .map(([key, value]) => `${key} = ${typeof value === 'number' ? Math.round(value * 100) / 100 : String(value)}`)
    .join(', ');
  const paragraphs = [
    fill(t.raised, {
      research: opts.researchName,
      furnace: opts.furnaceName ? ` (${opts.furnaceName})` : '',
      kind,
      subject: opts.alarm.subject ? ` — ${opts.alarm.subject}` : '',
    }),
    fill(t.since, { at: WARSAW[opts.lang].format(new Date(opts.alarm.raised_at)) }),
    ...(details ? [fill(t.details, { details })] : []),
    ...(opts.alarm.notify_count > 1 ? [fill(t.repeat, { count: opts.alarm.notify_count - 1 })] : []),
    t.acknowledge,
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

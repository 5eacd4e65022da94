import { layout } from '../mail/templates';

const warsaw = new Intl.DateTimeFormat('pl-PL', { timeZone: 'Europe/Warsaw', dateStyle: 'long', timeStyle: 'short' });

/** The Polish invitation a client receives: the research, its time window in Polish time, and their link. */
export function invitationEmail(opts: { brand: string; researchName: string; startAt: Date; endAt: Date; link: string }) {
  const start = warsaw.format(opts.startAt);
  const end = warsaw.format(opts.endAt);
  const subject = `Zaproszenie do obserwacji badania: ${opts.researchName}`;
  const paragraphs = [
    'Dzień dobry,',
    `zapraszamy do obserwacji na żywo badania „${opts.researchName}”.`,
    `Rozpoczęcie: ${start}. Zakończenie: ${end} (czas polski).`,
    'Link stanie się aktywny w chwili rozpoczęcia badania. Jest przeznaczony tylko dla Państwa — prosimy go nie udostępniać.',
  ];
  return {
    subject,
    html: layout({ brand: opts.brand, title: 'Zaproszenie do obserwacji badania', paragraphs, button: { label: 'Obserwuj badanie', href: opts.link } }),
    text: `${paragraphs.join('\n\n')}\n\n${opts.link}\n`,
  };
}

/*
 * The e-mails the product sends, Polish: the client's invitation, a password recovery, a sign-up
 * awaiting approval. mail.en.ts is the English one. Which language each reader gets: docs/behaviour.md §1.
 */
export const mailPl = {
  invitation: {
    subject: 'Zaproszenie do obserwacji badania: {{research}}',
    title: 'Zaproszenie do obserwacji badania',
    greeting: 'Dzień dobry,',
    invite: 'zapraszamy do obserwacji na żywo badania „{{research}}”.',
    window: 'Rozpoczęcie: {{start}}. Zakończenie: {{end}} (czas polski).',
    private:
      'Link stanie się aktywny w chwili rozpoczęcia badania. Jest przeznaczony tylko dla Państwa — prosimy go nie udostępniać.',
    button: 'Obserwuj badanie',
  },
  recovery: {
    subject: '{{brand}} - Odzyskiwanie hasła użytkownika {{email}}',
    title: 'Odzyskiwanie hasła',
    greeting: 'Dzień dobry {{email}},',
    request: 'Otrzymaliśmy prośbę o odzyskanie hasła do Twojego konta. Aby ustawić nowe hasło, otwórz poniższy link.',
    footer:
      'Link jest ważny przez {{hours}} godz. i działa jeden raz. Jeśli nie prosiłeś(-aś) o odzyskanie hasła, zignoruj tę wiadomość.',
    button: 'Ustaw nowe hasło',
  },
  alarm: {
    subject: '{{brand}} - ALARM: {{kind}} — {{research}}',
    title: 'Alarm badania',
    raised: 'Badanie „{{research}}”{{furnace}}: {{kind}}{{subject}}.',
    since: 'Podniesiony: {{at}} (czas polski).',
    details: 'Szczegóły: {{details}}.',
    repeat: 'To powtórzenie nr {{count}}: alarm nie został jeszcze potwierdzony.',
    acknowledge: 'Potwierdź alarm w widoku na żywo badania, aby zatrzymać powtórzenia.',
    button: 'Otwórz widok na żywo',
  },
  signup: {
    subject: '{{brand}} - {{email}} zarejestrował(a) się i czeka na zatwierdzenie',
    title: 'Nowe konto czeka na zatwierdzenie',
    created:
      '{{who}} utworzył(a) konto. Pozostaje ono nieaktywne, bez dostępu do żadnego badania, dopóki superużytkownik go nie aktywuje.',
    approve:
      'Aby je zatwierdzić, otwórz stronę administracji, znajdź konto i oznacz je jako aktywne. Jeśli nie znasz tej osoby, usuń konto.',
    button: 'Otwórz administrację',
  },
};

export type MailTranslation = typeof mailPl;

import { invitationEmail } from '../emails/invitation';
import { resetPasswordEmail, signupApprovalEmail } from './templates';

// The e-mails in each language, as their reader gets them (which language a reader gets: docs/behaviour.md §1).
describe('the e-mails', () => {
  const invitation = {
    brand: 'Furnace Live',
    researchName: 'Ściana EI 120',
    startAt: new Date('2030-06-01T08:00:00Z'),
    endAt: new Date('2030-06-01T12:30:00Z'),
    link: 'https://lab.example/view/r?code=c',
  };

  it("invite a client in Polish, the installation's language, with the window in Polish time", () => {
    const mail = invitationEmail({ ...invitation, lang: 'pl' });
    expect(mail.subject).toBe('Zaproszenie do obserwacji badania: Ściana EI 120');
    expect(mail.text).toBe(
      'Dzień dobry,\n\nzapraszamy do obserwacji na żywo badania „Ściana EI 120”.\n\nRozpoczęcie: 1 czerwca 2030 10:00. Zakończenie: 1 czerwca 2030 14:30 (czas polski).\n\n' +
        'Link stanie się aktywny w chwili rozpoczęcia badania. Jest przeznaczony tylko dla Państwa — prosimy go nie udostępniać.\n\nhttps://lab.example/view/r?code=c\n',
    );
    expect(mail.html).toContain('>Obserwuj badanie</a>');
  });

  it('invite a client in English', () => {
    const mail = invitationEmail({ ...invitation, lang: 'en' });
    expect(mail.subject).toBe('Invitation to watch the test: Ściana EI 120');
    expect(mail.text).toContain('you are invited to watch the test “Ściana EI 120” live.');
    expect(mail.text).toContain('Start: 1 June 2030 at 10:00. End: 1 June 2030 at 14:30 (Polish time).');
    expect(mail.html).toContain('<title>Invitation to watch a test</title>');
    expect(mail.html).toContain('>Watch the test</a>');
  });

  it('recover a password in either language', () => {
    const opts = {
      brand: 'Furnace Live',
      email: 'alice@example.com',
      link: 'https://lab.example/reset-password?token=t',
      validHours: 48,
    };
    const en = resetPasswordEmail({ ...opts, lang: 'en' });
    expect(en.subject).toBe('Furnace Live - Password recovery for user alice@example.com');
    expect(en.text).toContain('The link is valid for 48 hours and works once.');
    expect(en.html).toContain('>Reset password</a>');
    const pl = resetPasswordEmail({ ...opts, lang: 'pl' });
    expect(pl.subject).toBe('Furnace Live - Odzyskiwanie hasła użytkownika alice@example.com');
    expect(pl.text).toMatch(/^Dzień dobry alice@example\.com,\n\nOtrzymaliśmy prośbę o odzyskanie hasła/);
    expect(pl.text).toContain('Link jest ważny przez 48 godz. i działa jeden raz.');
    expect(pl.html).toContain('>Ustaw nowe hasło</a>');
  });

  it('tell the superusers of a sign-up in either language', () => {
    const opts = {
      brand: 'Furnace Live',
      email: 'bob@example.com',
      fullName: 'Bob <B>',
      link: 'https://lab.example/admin',
    };
    const en = signupApprovalEmail({ ...opts, lang: 'en' });
    expect(en.subject).toBe('Furnace Live - bob@example.com signed up and waits for approval');
    expect(en.html).toContain('Bob &lt;B&gt; &lt;bob@example.com&gt; created an account.');
    const pl = signupApprovalEmail({ ...opts, lang: 'pl' });
    expect(pl.subject).toBe('Furnace Live - bob@example.com zarejestrował(a) się i czeka na zatwierdzenie');
    expect(pl.text).toContain('Bob <B> <bob@example.com> utworzył(a) konto.');
    expect(pl.html).toContain('>Otwórz administrację</a>');
  });
});

/*
 * Texts of the test's life after it ends (docs/behaviour.md, "The permanent record"): its state, the review,
 * the approval, the reopening and the documents issued with each revision; namespace "review".
 * review.en.ts is the English translation.
 */
export const reviewPl = {
  state: {
    label: 'Stan badania',
    planned: 'Zaplanowane',
    running: 'W toku',
    ended: 'Zakończone',
    reviewed: 'Sprawdzone',
    approved: 'Zatwierdzone',
    approvedAs: 'Zatwierdzone · rewizja {{revision}}',
  },
  frozen:
    'Badanie jest zatwierdzone (rewizja {{revision}}): superużytkownik musi je najpierw ponownie otworzyć, by cokolwiek zmienić.',
  panel: {
    title: 'Sprawdzenie i zatwierdzenie',
    notEnded: 'Badanie sprawdza się po jego zakończeniu: po planowanym końcu albo po obserwacji „Koniec badania”.',
    reviewed: 'Sprawdzenie: {{who}}, {{when}}',
    approved: 'Zatwierdzenie: {{who}}, {{when}}',
    reopened: 'Ponownie otwarte: {{who}}, {{when}}. Powód: {{reason}}',
    comment: 'Komentarz: {{text}}',
    notReviewer: 'Zatwierdza inna osoba niż sprawdzająca ({{who}}).',
    changeWithdraws: 'Zmiana zapisu badania przed zatwierdzeniem cofa sprawdzenie.',
  },
  review: {
    button: 'Oznacz jako sprawdzone',
    title: 'Sprawdzenie badania',
    hint: 'Zapisuje, kto i kiedy sprawdził zakończone badanie. Zatwierdza je potem inna osoba.',
    done: 'Badanie oznaczone jako sprawdzone',
    error: 'Nie udało się oznaczyć badania jako sprawdzonego',
  },
  approve: {
    button: 'Zatwierdź',
    title: 'Zatwierdzenie badania',
    hint: 'Zatwierdzenie zamraża zapis badania i wydaje raport oraz klasyfikację (po polsku i po angielsku) jako rewizję {{revision}}, ze skrótem SHA-256 surowych danych na każdej stronie.',
    done: 'Badanie zatwierdzone jako rewizja {{revision}}',
    error: 'Nie udało się zatwierdzić badania',
  },
  reopen: {
    button: 'Otwórz ponownie',
    title: 'Ponowne otwarcie badania',
    hint: 'Badanie wróci do stanu „Zakończone”, a jego zapis będzie można zmieniać. Wydane rewizje zostają; następne zatwierdzenie będzie nową rewizją.',
    done: 'Badanie ponownie otwarte',
    error: 'Nie udało się ponownie otworzyć badania',
    onlySuperuser: 'Zatwierdzone badanie otwiera ponownie tylko superużytkownik',
  },
  commentLabel: 'Komentarz (opcjonalnie)',
  reasonLabel: 'Powód (wymagany)',
  confirm: 'Zapisz',
  revisions: {
    title: 'Wydane dokumenty',
    none: 'Badanie nie ma jeszcze zatwierdzonej rewizji.',
    revision: 'Rewizja {{revision}}',
    hash: 'SHA-256 surowych danych:',
    report: 'Raport PDF',
    classification: 'Klasyfikacja PDF',
    download: '{{document}} ({{lang}}), rewizja {{revision}}',
    downloadError: 'Nie udało się pobrać dokumentu',
  },
  verify: {
    button: 'Sprawdź integralność danych',
    now: 'Skrót danych teraz: {{hash}} ({{readings}} odczytów)',
    matches: 'Rewizja {{revision}}: dane zgodne',
    differs: 'Rewizja {{revision}}: dane ZMIENIONE od zatwierdzenia',
    error: 'Nie udało się sprawdzić danych',
  },
};

export type ReviewTranslation = typeof reviewPl;

import { CATALOGUES } from '@furnace/text';

const { translation: pl } = CATALOGUES.pl;
const { translation: en } = CATALOGUES.en;

type Tree = { [key: string]: string | Tree };

function keys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keys(value, `${prefix}${key}.`),
  );
}

function lookup(tree: Tree, path: string): string | Tree | undefined {
  return path
    .split('.')
    .reduce<string | Tree | undefined>((node, key) => (typeof node === 'object' ? node[key] : undefined), tree);
}

describe('i18n resources', () => {
  it('have the same keys in Polish and English, none empty', () => {
    expect(keys(en as Tree).sort()).toEqual(keys(pl as Tree).sort());
    for (const key of keys(pl as Tree)) {
      expect(lookup(pl as Tree, key)).not.toBe('');
      expect(lookup(en as Tree, key)).not.toBe('');
    }
  });

  it("hold the product's exact texts", () => {
    const exact: Record<string, string> = {
      'validation.emailInvalid': 'Niepoprawny adres email',
      'validation.passwordMin': 'Password must be at least 8 characters',
      'validation.passwordRequired': 'Podaj hasło',
      'validation.passwordsMismatch': 'The passwords do not match',
      'validation.confirmRequired': 'Password confirmation is required',
      'validation.fullNameRequired': 'Full Name is required',
      'validation.emailRequired': 'Email is required',
      'validation.loginEmailRequired': 'Podaj adres email',
      'validation.researchNameRequired': 'Nazwa badania jest wymagana',
      'validation.linkRequired': 'Link jest wymagany',
      'validation.clientEmailRequired': 'Email jest wymagany',
      'validation.filesMissing': 'Nie wybrano plików',
      'validation.userPasswordRequired': 'Password is required',
      'validation.userConfirmRequired': 'Please confirm your password',
      'common.errorTitle': 'Something went wrong!',
      'common.genericError': 'Something went wrong.',
      'common.successTitle': 'Success!',
      'research.deleteError': 'Wystąpił błąd podczas usuwania badania',
      'research.configDeleteError': 'Wystąpił błąd podczas usuwania konfiguracji',
      'research.configAddError': 'Wystąpił błąd podczas dodawania konfiguracji termopar',
      'research.emailAddError': 'Wystąpił błąd podczas dodawania Maila',
      'research.emailSendError': 'Wystąpił błąd podczas wysyłania Maila',
      'research.emailsSendError': 'Wystąpił błąd podczas wysyłania Maili',
      'research.urlAddError': 'Wystąpił błąd podczas dodawania URL',
      'research.urlDeleteError': 'Wystąpił błąd podczas usuwania linku URL',
      'research.updateError': 'Wystąpił błąd podczas aktualizacji badania',
      'admin.deleteError': 'An error occurred while deleting the user',
      'research.deleted': 'Badanie poprawnie usunięte',
      'research.configDeleted': 'Konfiguracja usunięta poprawnie',
      'research.configAdded': 'Konfiguracja poprawnie dodana',
      'research.emailAdded': 'Email poprawnie dodany',
      'research.emailSent': 'Email poprawnie wysłany',
      'research.emailsSent': 'Emaile poprawnie wysłane',
      'research.urlAdded': 'URL poprawnie dodany',
      'research.urlDeleted': 'Link poprawnie usunięty',
      'research.updated': 'Badanie poprawnie zaktualizowane',
      'research.created': 'Badanie zostało dodane',
      'admin.userCreated': 'User created successfully.',
      'admin.userUpdated': 'User updated successfully.',
      'admin.userDeleted': 'The user was deleted successfully',
      'settings.passwordUpdated': 'Password updated successfully.',
      'auth.recoverSent': 'Password recovery email sent successfully.',
      'settings.accountDeleted': 'Your account has been successfully deleted',
      'nav.home': 'Strona główna',
      'nav.research': 'Badania',
      'nav.addResearch': 'Dodaj badanie',
      'nav.user': 'User',
      'nav.logout': 'Log Out',
      'home.welcome': 'Witamy na stronie',
      'research.listTitle': 'Lista badań',
      'research.createTitle': 'Tworzenie badania',
      'research.sendAll': 'Wyślij wszystkie',
      'research.addAndSend': 'Dodaj i wyślij',
      'admin.title': 'Users Management',
      'notFound.text': 'The page you are looking for was not found.',
    };
    for (const [key, text] of Object.entries(exact)) expect([key, lookup(pl as Tree, key)]).toEqual([key, text]);
  });
});

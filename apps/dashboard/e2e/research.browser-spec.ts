import { type Locator, type Page } from '@playwright/test';
import {
  ADMIN,
  API,
  apiToken,
  createUser,
  expect,
  firstLink,
  mailsTo,
  newUser,
  signInWithToken,
  skipWithoutChromium,
  snap,
  test,
  toast,
  uniqueEmail,
  waitForMail,
} from './support/fixtures';
import { BAD_CONFIG_TEXT, configFile, createResearchByApi, photo } from './support/research';
import { warsaw } from './support/dates';

skipWithoutChromium();

const section = (page: Page, name: string): Locator => page.getByRole('region', { name, exact: true });
const confirmDialog = (page: Page) => page.getByRole('dialog');

test.describe.serial('a research from creation to invitations', () => {
  const clients = [uniqueEmail('client-a'), uniqueEmail('client-b')];
  let researchId = '';
  let researchName = '';

  test('create a research with links, a photo with its config and e-mails', async ({ page, request }) => {
    await signInWithToken(page, request, ADMIN.email, ADMIN.password);
    await page.goto('/research/add');
    await expect(page.getByRole('heading', { name: 'Tworzenie badania' })).toBeVisible();

    // Start defaults to now, end to now + 3 h.
    // The inputs hold the browser's local time (Europe/Warsaw here): read them there.
    const start = await page.getByLabel('Data rozpoczęcia').inputValue();
    const end = await page.getByLabel('Data zakończenia').inputValue();
    const [startMs, endMs, nowMs] = await page.evaluate(
      ([s, e]) => [new Date(s).getTime(), new Date(e).getTime(), Date.now()],
      [start, end],
    );
    expect(Math.abs((startMs as number) - (nowMs as number))).toBeLessThan(2 * 60_000);
    expect((endMs as number) - (startMs as number)).toBe(3 * 3600_000);
    await expect(page.getByRole('button', { name: 'Dodaj badanie' })).toBeDisabled();
    await snap(page, 'research-add');

    const name = page.getByLabel('Nazwa badania');
    await name.focus();
    await name.blur();
    await expect(page.getByText('Nazwa badania jest wymagana')).toBeVisible();
    researchName = `Drzwi EI60 – próba ${Date.now().toString(36)}`;
    await name.fill(researchName);
    await page.getByLabel('Promieniowanie').check();
    await page.getByLabel('Temperatura w piecu').check();

    await page.getByRole('button', { name: 'Dodaj link' }).click();
    const link1 = page.getByRole('textbox', { name: 'Link 1' });
    await link1.focus();
    await link1.blur();
    await expect(page.getByText('Link jest wymagany')).toBeVisible();
    await link1.fill('https://www.youtube.com/watch?v=aqz-KE-bpKQ');
    await page.getByRole('button', { name: 'Dodaj link' }).click();
    await page.getByRole('textbox', { name: 'Link 2' }).fill('https://cams.example.com/piec3/index.m3u8');

    await page.getByRole('button', { name: 'Dodaj konfigurację' }).click();
    await page.getByTestId('thermo-image-0').setInputFiles(photo('piec3-drzwi.png'));
    await page.getByTestId('thermo-config-0').setInputFiles(configFile('piec3-termopary.txt'));
    await expect(page.getByText('Termopary w pliku: 4')).toBeVisible();

    await page.getByRole('button', { name: 'Dodaj email' }).click();
    const email1 = page.getByRole('textbox', { name: 'Email 1' });
    await email1.focus();
    await email1.blur();
    await expect(page.getByText('Email jest wymagany')).toBeVisible();
    await email1.fill(clients[0] as string);
    await page.getByRole('button', { name: 'Dodaj email' }).click();
    await page.getByRole('textbox', { name: 'Email 2' }).fill(clients[1] as string);
    await snap(page, 'research-add-filled');

    await page.getByRole('button', { name: 'Dodaj badanie' }).click();
    await expect(toast(page, 'Badanie zostało dodane')).toBeVisible();
    await expect(page).toHaveURL(/\/research\/[0-9a-f-]{36}\/edit$/);
    researchId = /\/research\/([0-9a-f-]{36})\/edit/.exec(page.url())?.[1] ?? '';

    await expect(page.getByRole('heading', { name: 'Edycja badania' })).toBeVisible();
    await expect(section(page, 'Informacje podstawowe').getByLabel('Nazwa badania')).toHaveValue(researchName);
    await expect(section(page, 'Linki do transmisji').getByTestId('url-row')).toHaveCount(2);
    await expect(section(page, 'Konfiguracje termopar').getByTestId('thermo-row')).toHaveCount(1);
    await expect(page.getByTestId('thermo-thumbnail')).toHaveAttribute('data-markers', '4');
    await expect(section(page, 'Konfiguracje termopar')).toContainText('piec3-drzwi.png');
    await expect(section(page, 'Konfiguracje termopar')).toContainText('piec3-termopary.txt');
    const emails = section(page, 'E-maile klientów').getByTestId('email-row');
    for (const client of clients)
      await expect(emails.filter({ hasText: client })).toHaveAttribute('data-sent', 'false');
    await snap(page, 'research-edit');
  });

  test('edit each section', async ({ page, request }) => {
    await signInWithToken(page, request, ADMIN.email, ADMIN.password);
    await page.goto(`/research/${researchId}/edit`);

    // Basic info: read-only until Edytuj; Anuluj and Zapisz; read-only again after saving.
    const basic = section(page, 'Informacje podstawowe');
    await expect(basic.getByLabel('Nazwa badania')).toHaveAttribute('readonly', '');
    await expect(basic.getByRole('button', { name: 'Zapisz' })).toHaveCount(0);
    await basic.getByRole('button', { name: 'Edytuj' }).click();
    await expect(basic.getByRole('button', { name: 'Anuluj' })).toBeVisible();
    await basic.getByLabel('Nazwa badania').fill('');
    await basic.getByLabel('Data rozpoczęcia').focus();
    await expect(basic.getByText('Nazwa badania jest wymagana')).toBeVisible();
    await expect(basic.getByRole('button', { name: 'Zapisz' })).toBeDisabled();
    await basic.getByRole('button', { name: 'Anuluj' }).click();
    await expect(basic.getByLabel('Nazwa badania')).toHaveValue(researchName);
    await basic.getByRole('button', { name: 'Edytuj' }).click();
    researchName = `${researchName} (poprawione)`;
    await basic.getByLabel('Nazwa badania').fill(researchName);
    await basic.getByLabel('Ciśnienie').check();
    await snap(page, 'research-edit-basic');
    await basic.getByRole('button', { name: 'Zapisz' }).click();
    await expect(toast(page, 'Badanie poprawnie zaktualizowane')).toBeVisible();
    await expect(basic.getByRole('button', { name: 'Edytuj' })).toBeVisible();
    await expect(basic.getByLabel('Nazwa badania')).toHaveValue(researchName);
    await expect(basic.getByLabel('Ciśnienie')).toBeChecked();

    // Stream links: the empty add field's message is the product's ('Email jest wymagany').
    const links = section(page, 'Linki do transmisji');
    const newLink = links.getByRole('textbox', { name: 'Nowy link' });
    await newLink.focus();
    await newLink.blur();
    await expect(links.getByText('Email jest wymagany')).toBeVisible();
    await newLink.fill('https://cams.example.com/piec3/boczna');
    await links.getByRole('button', { name: 'Dodaj' }).click();
    await expect(toast(page, 'URL poprawnie dodany')).toBeVisible();
    await expect(links.getByTestId('url-row')).toHaveCount(3);
    await links.getByRole('button', { name: 'Usuń link: https://cams.example.com/piec3/index.m3u8' }).click();
    await expect(confirmDialog(page)).toContainText('Czy na pewno chcesz usunąć link');
    await snap(page, 'confirm-delete-url', { fullPage: false });
    await confirmDialog(page).getByRole('button', { name: 'Usuń' }).click();
    await expect(toast(page, 'Link poprawnie usunięty')).toBeVisible();
    await expect(links.getByTestId('url-row')).toHaveCount(2);

    // Thermocouple configs: both files are needed; a bad config is explained before upload.
    const thermo = section(page, 'Konfiguracje termopar');
    await thermo.getByTestId('thermo-image').setInputFiles(photo('piec3-bok.png'));
    await expect(thermo.getByText('Nie wybrano plików')).toBeVisible();
    await thermo.getByTestId('thermo-config').setInputFiles(configFile('zly.txt', BAD_CONFIG_TEXT));
    await expect(thermo.getByText('Plik konfiguracji zawiera błędy:')).toBeVisible();
    await expect(thermo.getByText(/line 2, color_hex/)).toBeVisible();
    await expect(thermo.getByRole('button', { name: 'Dodaj' })).toBeDisabled();
    await snap(page, 'research-edit-bad-config');
    await thermo.getByTestId('thermo-config').setInputFiles(configFile('piec3-bok.txt'));
    await expect(thermo.getByText('Termopary w pliku: 4')).toBeVisible();
    await thermo.getByRole('button', { name: 'Dodaj' }).click();
    await expect(toast(page, 'Konfiguracja poprawnie dodana')).toBeVisible();
    await expect(thermo.getByTestId('thermo-row')).toHaveCount(2);
    await expect(page.getByTestId('thermo-thumbnail')).toHaveCount(2);
    await thermo.getByRole('button', { name: 'Usuń konfigurację: piec3-drzwi.png' }).click();
    await expect(confirmDialog(page)).toContainText('piec3-drzwi.png');
    await confirmDialog(page).getByRole('button', { name: 'Usuń' }).click();
    await expect(toast(page, 'Konfiguracja usunięta poprawnie')).toBeVisible();
    await expect(thermo.getByTestId('thermo-row')).toHaveCount(1);
    await expect(thermo).toContainText('piec3-bok.png');
  });

  test('send invitations', async ({ page, request }) => {
    await signInWithToken(page, request, ADMIN.email, ADMIN.password);
    await page.goto(`/research/${researchId}/edit`);
    const emails = section(page, 'E-maile klientów');
    const row = (address: string) => emails.getByTestId('email-row').filter({ hasText: address });

    await emails.getByRole('button', { name: `Wyślij zaproszenie do ${clients[0]}` }).click();
    await expect(toast(page, 'Email poprawnie wysłany')).toBeVisible();
    await expect(row(clients[0] as string)).toHaveAttribute('data-sent', 'true');
    await expect(row(clients[0] as string).getByRole('img', { name: 'Wysłano' })).toBeVisible();
    await expect(emails.getByRole('button', { name: `Wyślij zaproszenie do ${clients[0]}` })).toBeDisabled();
    const invitation = await waitForMail(clients[0] as string);
    const link = new URL(firstLink(invitation));
    expect(link.pathname).toBe(`/view/${researchId}`);
    expect(link.searchParams.get('code')).toMatch(/^[0-9a-f-]{36}$/);

    const newEmail = emails.getByRole('textbox', { name: 'Nowy adres email' });
    await newEmail.focus();
    await newEmail.blur();
    await expect(emails.getByText('Email jest wymagany')).toBeVisible();
    const late = uniqueEmail('client-late');
    await newEmail.fill(late);
    // This client reads English: their invitation is in English, and the list says so.
    await emails.getByRole('combobox', { name: 'Język zaproszenia' }).click();
    await page.getByRole('option', { name: 'English' }).click();
    await emails.getByRole('button', { name: 'Dodaj i wyślij' }).click();
    await expect(toast(page, 'Email poprawnie dodany')).toBeVisible();
    await expect(toast(page, 'Email poprawnie wysłany')).toBeVisible();
    await expect(row(late)).toHaveAttribute('data-sent', 'true');
    await expect(row(late).getByTestId('email-lang')).toHaveText('English');
    expect((await waitForMail(late)).subject).toMatch(/^Invitation to watch the test: /);
    // The form is back to Polish for the next address.
    await expect(emails.getByRole('combobox', { name: 'Język zaproszenia' })).toHaveValue('Polski');

    const plain = uniqueEmail('client-plain');
    await newEmail.fill(plain);
    await emails.getByRole('button', { name: 'Dodaj', exact: true }).click();
    await expect(row(plain)).toHaveAttribute('data-sent', 'false');
    await expect(row(plain).getByTestId('email-lang')).toHaveText('Polski');

    await emails.getByRole('button', { name: 'Wyślij wszystkie' }).click();
    await expect(toast(page, 'Emaile poprawnie wysłane')).toBeVisible();
    for (const address of [clients[1] as string, plain]) {
      await expect(row(address)).toHaveAttribute('data-sent', 'true');
      await waitForMail(address);
    }
    expect(await mailsTo(clients[0] as string)).toHaveLength(1);
    await snap(page, 'research-edit-sent');
  });

  test('preview links lead to the live view route', async ({ page, request }) => {
    await signInWithToken(page, request, ADMIN.email, ADMIN.password);
    await page.goto(`/research/${researchId}/edit`);
    await page.getByRole('link', { name: 'Podgląd' }).click();
    await expect(page).toHaveURL(new RegExp(`/research/${researchId}/view$`));
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });
});

test('the research list: newest first, Polish dates; delete refused for a user, done by a superuser', async ({
  page,
  request,
}) => {
  const tag = Date.now().toString(36);
  const older = await createResearchByApi(request, `Starsze badanie ${tag}`, new Date(Date.now() - 48 * 3600_000));
  const newer = await createResearchByApi(request, `Nowsze badanie ${tag}`, new Date(Date.now() + 24 * 3600_000));

  // A user sees the list; Usuń is disabled, and the API refuses too.
  const user = newUser('lister');
  await createUser(request, user);
  await signInWithToken(page, request, user.email, user.password);
  await page.goto('/research');
  await expect(page.getByRole('heading', { name: 'Lista badań' })).toBeVisible();
  const table = page.getByTestId('research-table');
  // The heading shows before the list has loaded: wait for both rows before reading the order.
  await expect(table.locator('tbody tr').filter({ hasText: newer.name })).toBeVisible();
  await expect(table.locator('tbody tr').filter({ hasText: older.name })).toBeVisible();
  const names = await table.locator('tbody tr td:first-child').allInnerTexts();
  expect(names.indexOf(newer.name)).toBeGreaterThanOrEqual(0);
  expect(names.indexOf(newer.name)).toBeLessThan(names.indexOf(older.name));
  const olderRow = table.locator('tbody tr').filter({ hasText: older.name });
  await expect(olderRow).toContainText(warsaw(older.start_at));
  await expect(olderRow).toContainText(warsaw(older.end_at));
  await expect(olderRow.getByRole('button', { name: 'Usuń' })).toBeDisabled();
  await snap(page, 'research-list-user');
  const userToken = await apiToken(request, user.email, user.password);
  const refused = await request.delete(`${API}/research/${older.id}`, {
    headers: { Authorization: `Bearer ${userToken}` },
  });
  expect(refused.status()).toBe(403);

  // A superuser deletes after confirming.
  await signInWithToken(page, request, ADMIN.email, ADMIN.password);
  await page.goto('/research');
  await snap(page, 'research-list');
  await table.locator('tbody tr').filter({ hasText: older.name }).getByRole('button', { name: 'Usuń' }).click();
  await expect(confirmDialog(page)).toContainText(older.name);
  await snap(page, 'confirm-delete-research', { fullPage: false });
  await confirmDialog(page).getByRole('button', { name: 'Usuń' }).click();
  await expect(toast(page, 'Badanie poprawnie usunięte')).toBeVisible();
  await expect(table.locator('tbody tr').filter({ hasText: older.name })).toHaveCount(0);
  await expect(table.locator('tbody tr').filter({ hasText: newer.name })).toHaveCount(1);

  // Edit of a research that does not exist.
  await page.goto(`/research/${older.id}/edit`);
  await expect(page.getByText('Badanie nie istnieje')).toBeVisible();
  await expect(page.getByText('Upewnij się czy wpisany link jest poprawny.')).toBeVisible();
  await snap(page, 'research-missing');
});

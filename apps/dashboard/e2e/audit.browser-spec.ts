import type { Page } from '@playwright/test';
import {
  ADMIN,
  createUser,
  expect,
  newUser,
  signInWithToken,
  skipWithoutChromium,
  snap,
  test,
  toast,
} from './support/fixtures';
import { createResearchByApi } from './support/research';

skipWithoutChromium();

const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

test('a change to a research shows in its change history, and on the superusers’ audit trail', async ({
  page,
  request,
}) => {
  const tag = Date.now().toString(36);
  const research = await createResearchByApi(request, `Drzwi z historią ${tag}`, new Date(Date.now() - 3600_000));
  const staff = newUser('auditor');
  await createUser(request, staff);

  // A member of staff renames the test and ticks the pressure.
  await signInWithToken(page, request, staff.email, staff.password);
  await page.goto(`/research/${research.id}/edit`);
  const history = section(page, 'Historia zmian');
  // Its creation: the research and the lab's own address among its clients (INTERNAL_CLIENT_EMAIL).
  await expect(history.getByTestId('audit-row')).toHaveCount(2);
  await expect(history.getByTestId('audit-row').last()).toContainText(ADMIN.email);
  await expect(history.getByTestId('audit-row').last()).toContainText(`Nazwa: Drzwi z historią ${tag}`);

  const basic = section(page, 'Informacje podstawowe');
  await basic.getByRole('button', { name: 'Edytuj' }).click();
  await basic.getByLabel('Nazwa badania').fill(`Drzwi EI 60 ${tag}`);
  await basic.getByLabel('Ciśnienie').check();
  await basic.getByRole('button', { name: 'Zapisz' }).click();
  await expect(toast(page, 'Badanie poprawnie zaktualizowane')).toBeVisible();

  // The history shows it at once, newest first: who, what, before → after.
  const newest = history.getByTestId('audit-row').first();
  await expect(history.getByTestId('audit-row')).toHaveCount(3);
  await expect(newest).toContainText(staff.email);
  await expect(newest).toContainText('zmieniono');
  await expect(newest).toContainText(`Nazwa: Drzwi z historią ${tag} → Drzwi EI 60 ${tag}`);
  await expect(newest).toContainText('Ciśnienie: nie → tak');
  await newest.getByRole('button', { name: 'Szczegóły' }).click();
  await expect(newest).toContainText('"is_pressure": true');
  await history.scrollIntoViewIfNeeded();
  await snap(page, 'research-change-history');

  // Staff have no audit trail page; a superuser filters the whole trail by who made the change.
  await page.goto('/audit');
  await expect(page).toHaveURL(/\/$/);
  await signInWithToken(page, request, ADMIN.email, ADMIN.password);
  await page.goto('/');
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Dziennik zmian' }).click();
  await expect(page.getByRole('heading', { name: 'Dziennik zmian' })).toBeVisible();
  await page.getByTestId('audit-actor').fill(staff.email);
  await page.getByTestId('audit-actor').press('Enter');
  await expect(page).toHaveURL(/actor=/);
  const rows = page.getByTestId('audit-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`Drzwi EI 60 ${tag}`);
  await expect(rows.first()).toContainText('Ciśnienie: nie → tak');
  await snap(page, 'audit-trail');
});

test('a superuser archives a test: gone from the list, kept, and restored', async ({ page, request }) => {
  const tag = Date.now().toString(36);
  const research = await createResearchByApi(request, `Do archiwum ${tag}`, new Date(Date.now() + 3600_000));
  const row = () => page.getByTestId('research-table').locator('tbody tr').filter({ hasText: research.name });

  // Staff neither archive nor see archived tests.
  const staff = newUser('archivist');
  await createUser(request, staff);
  await signInWithToken(page, request, staff.email, staff.password);
  await page.goto('/research');
  await expect(row()).toHaveCount(1);
  await expect(row().getByRole('button', { name: 'Archiwizuj' })).toHaveCount(0);
  await expect(page.getByTestId('show-archived')).toHaveCount(0);

  await signInWithToken(page, request, ADMIN.email, ADMIN.password);
  await page.goto('/research');
  await row().getByRole('button', { name: 'Archiwizuj' }).click();
  await expect(page.getByRole('dialog')).toContainText(research.name);
  await page.getByTestId('confirm-archive').click();
  await expect(toast(page, 'Badanie zarchiwizowane')).toBeVisible();
  await expect(row()).toHaveCount(0);

  // Still there: with the switch on the list, and by its address.
  await page.getByRole('switch', { name: 'Pokaż zarchiwizowane' }).check();
  await expect(row()).toContainText('Zarchiwizowane');
  await snap(page, 'research-list-archived');
  await page.goto(`/research/${research.id}/edit`);
  await expect(page.getByTestId('archived-notice')).toContainText(ADMIN.email);
  await page.getByTestId('archived-notice').getByRole('button', { name: 'Przywróć' }).click();
  await expect(toast(page, 'Badanie przywrócone z archiwum')).toBeVisible();
  await expect(page.getByTestId('archived-notice')).toHaveCount(0);
  const history = section(page, 'Historia zmian');
  await expect(history.getByTestId('audit-row').first()).toContainText('przywrócono z archiwum');
  await expect(history.getByTestId('audit-row').nth(1)).toContainText('zarchiwizowano');

  await page.goto('/research');
  await expect(row()).toHaveCount(1);
  await expect(row()).not.toContainText('Zarchiwizowane');
});

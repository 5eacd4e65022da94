import type { Page } from '@playwright/test';
import {
  ADMIN,
  API,
  apiToken,
  createUser,
  expect,
  newUser,
  signInWithToken,
  skipWithoutChromium,
  snap,
  test,
  toast,
} from './support/fixtures';

skipWithoutChromium();

const scheme = (page: Page) => page.locator('html').getAttribute('data-mantine-color-scheme');
const storedTheme = (page: Page) => page.evaluate(() => localStorage.getItem('theme'));

async function snapAllTabs(page: Page, suffix: string): Promise<void> {
  for (const [tab, name] of [
    ['My profile', 'profile'],
    ['Password', 'password'],
    ['Appearance', 'appearance'],
    ['Danger zone', 'danger'],
  ] as const) {
    await page.getByRole('tab', { name: tab }).click();
    await snap(page, `settings-${name}${suffix}`);
  }
}

test('settings: profile, password, and every tab in light and dark', async ({ page, request }) => {
  const user = newUser('settings');
  await createUser(request, user);
  await signInWithToken(page, request, user.email, user.password);
  await page.goto('/settings');
  await expect(page.getByRole('heading', { name: 'User Settings' })).toBeVisible();
  for (const tab of ['My profile', 'Password', 'Appearance', 'Danger zone'])
    await expect(page.getByRole('tab', { name: tab })).toBeVisible();
  expect(await scheme(page)).toBe('light');
  await snapAllTabs(page, '');

  // My profile: Edit, Save only when changed and with an e-mail, Cancel.
  await page.getByRole('tab', { name: 'My profile' }).click();
  await expect(page.getByRole('tabpanel', { name: 'My profile' }).getByText(user.full_name)).toBeVisible();
  await page.getByRole('button', { name: 'Edit' }).click();
  const save = page.getByRole('button', { name: 'Save' });
  await expect(save).toBeDisabled();
  const emailInput = page.getByRole('textbox', { name: 'Email', exact: true });
  await emailInput.fill('');
  await page.getByRole('textbox', { name: 'Full name' }).focus();
  await expect(page.getByText('Email is required')).toBeVisible();
  await expect(save).toBeDisabled();
  await emailInput.fill(user.email);
  const fullName = page.getByRole('textbox', { name: 'Full name' });
  await fullName.fill('X'.repeat(40));
  await expect(fullName).toHaveValue('X'.repeat(30)); // at most 30
  await fullName.fill('Jan Nowak-Kowalski');
  await snap(page, 'settings-profile-edit');
  await save.click();
  await expect(toast(page, 'User updated successfully.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Edit' })).toBeVisible();
  await expect(page.getByTestId('user-menu')).toContainText('Jan Nowak-Kowalski');

  // Password.
  await page.getByRole('tab', { name: 'Password' }).click();
  const current = page.getByRole('textbox', { name: 'Current Password', exact: true });
  const next = page.getByRole('textbox', { name: 'New Password', exact: true });
  const confirm = page.getByRole('textbox', { name: 'Confirm Password', exact: true });
  await current.focus();
  await next.focus();
  await expect(page.getByText('Podaj hasło')).toBeVisible();
  await current.fill('not-the-password');
  await next.fill('Next-Password-2025');
  await confirm.fill('Next-Password-2026');
  await current.focus();
  await expect(page.getByText('The passwords do not match')).toBeVisible();
  await confirm.fill('Next-Password-2025');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'Something went wrong!')).toBeVisible(); // wrong current password
  await current.fill(user.password);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'Password updated successfully.')).toBeVisible();
  expect(await apiToken(request, user.email, 'Next-Password-2025')).toBeTruthy();

  // Appearance: Dark Mode is stored under 'theme' and survives a reload; System follows the OS.
  await page.getByRole('tab', { name: 'Appearance' }).click();
  await page.getByRole('radio', { name: 'Dark Mode' }).click();
  await expect.poll(() => scheme(page)).toBe('dark');
  expect(await storedTheme(page)).toBe('dark');
  await page.reload();
  await expect.poll(() => scheme(page)).toBe('dark');
  await snapAllTabs(page, '-dark');
  await page.goto('/');
  await snap(page, 'home-dark');
  await page.goto('/research');
  await expect(page.getByRole('heading', { name: 'Lista badań' })).toBeVisible();
  await snap(page, 'research-list-dark');
  await page.goto('/research/add');
  await snap(page, 'research-add-dark');

  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Appearance' }).click();
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.getByRole('radio', { name: 'System' }).click();
  expect(await storedTheme(page)).toBe('system');
  await expect.poll(() => scheme(page)).toBe('dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect.poll(() => scheme(page)).toBe('light');
  await page.getByRole('radio', { name: 'Light Mode' }).click();
  expect(await storedTheme(page)).toBe('light');
});

test('danger zone: a user deletes the account; a superuser has no such tab', async ({ page, request }) => {
  const user = newUser('leaving');
  await createUser(request, user);
  await signInWithToken(page, request, user.email, user.password);
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Danger zone' }).click();
  await expect(page.getByRole('heading', { name: 'Delete Account' })).toBeVisible();
  await page.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirmation Required' });
  await expect(dialog).toContainText('All your account data will be permanently deleted.');
  await snap(page, 'settings-delete-account', { fullPage: false });
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(toast(page, 'Your account has been successfully deleted')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  const refused = await request.post(`${API}/login/access-token`, {
    form: { username: user.email, password: user.password },
  });
  expect(refused.ok()).toBeFalsy();

  await signInWithToken(page, request, ADMIN.email, ADMIN.password);
  await page.goto('/settings');
  await expect(page.getByRole('tab', { name: 'My profile' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Danger zone' })).toHaveCount(0);
});

test('a 401 from the API ends the session', async ({ page, request }) => {
  await signInWithToken(page, request, ADMIN.email, ADMIN.password);
  await page.goto('/research');
  await expect(page.getByRole('heading', { name: 'Lista badań' })).toBeVisible();
  await page.evaluate(() => localStorage.setItem('access_token', 'expired-or-forged'));
  await page.goto('/settings');
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
});

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
  uniqueEmail,
} from './support/fixtures';

skipWithoutChromium();

const PAGE_SIZE = 5;

async function userCount(request: import('@playwright/test').APIRequestContext): Promise<number> {
  const token = await apiToken(request, ADMIN.email, ADMIN.password);
  const response = await request.get(`${API}/users?skip=0&limit=1`, { headers: { Authorization: `Bearer ${token}` } });
  return ((await response.json()) as { count: number }).count;
}

test('users management: 5 per page with ?page=, a skeleton while loading, the current user marked', async ({
  page,
  request,
}) => {
  for (let i = 0; i < 12; i++) await createUser(request, newUser(`page${String(i + 1).padStart(2, '0')}`));
  const count = await userCount(request);
  const pages = Math.ceil(count / PAGE_SIZE);
  expect(pages).toBeGreaterThanOrEqual(3);

  await signInWithToken(page, request, ADMIN.email, ADMIN.password);
  // Hold the first list answer back to see the loading state.
  let held = false;
  await page.route('**/api/v1/users?*', async (route) => {
    if (!held) {
      held = true;
      await new Promise((resolve) => setTimeout(resolve, 1500));
    }
    await route.continue();
  });
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Users Management' })).toBeVisible();
  await expect(page.getByTestId('skeleton-row')).toHaveCount(5);
  await snap(page, 'admin-loading', { only: 'desktop' });

  const rows = page.getByTestId('user-row');
  await expect(rows).toHaveCount(PAGE_SIZE);
  for (const header of ['Full name', 'Email', 'Role', 'Status', 'Actions']) {
    await expect(page.getByRole('columnheader', { name: header })).toBeVisible();
  }
  const me = rows.filter({ hasText: ADMIN.email });
  await expect(me).toContainText('You');
  await expect(me).toContainText('Superuser');
  await expect(me).toContainText('Active');
  await expect(me.getByRole('button', { name: `Actions for ${ADMIN.email}` })).toBeDisabled();
  await expect(rows.nth(1)).toContainText('User');
  await expect(page.getByRole('button', { name: String(pages), exact: true })).toBeVisible();
  await snap(page, 'admin');

  await page.getByRole('button', { name: '2', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\?page=2$/);
  await expect(rows).toHaveCount(PAGE_SIZE);
  await expect(rows.filter({ hasText: ADMIN.email })).toHaveCount(0);
  await snap(page, 'admin-page-2');

  await page.goto(`/admin?page=${pages}`);
  await expect(rows).toHaveCount(count - PAGE_SIZE * (pages - 1));
});

test('add, edit and delete a user', async ({ page, request }) => {
  await signInWithToken(page, request, ADMIN.email, ADMIN.password);
  await page.goto('/admin');
  await page.getByRole('button', { name: 'Add User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add User' });
  await expect(dialog).toBeVisible();

  const email = dialog.getByRole('textbox', { name: 'Email', exact: true });
  const password = dialog.getByRole('textbox', { name: 'Set Password', exact: true });
  const confirm = dialog.getByRole('textbox', { name: 'Confirm Password', exact: true });
  await email.focus();
  await password.focus();
  await confirm.focus();
  await dialog.getByRole('textbox', { name: 'Full name' }).focus();
  await expect(dialog.getByText('Email is required')).toBeVisible();
  await expect(dialog.getByText('Password is required')).toBeVisible();
  await expect(dialog.getByText('Please confirm your password')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeDisabled();
  await snap(page, 'admin-add-user-validation', { fullPage: false });

  const address = uniqueEmail('added');
  await email.fill(address);
  await dialog.getByRole('textbox', { name: 'Full name' }).fill('Ewa Zielińska');
  await password.fill('Added-User-Pass-1');
  await confirm.fill('Added-User-Pass-2');
  await email.focus();
  await expect(dialog.getByText('The passwords do not match')).toBeVisible();
  await confirm.fill('Added-User-Pass-1');
  await dialog.getByLabel('Is superuser?').check();
  await snap(page, 'admin-add-user', { fullPage: false });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'User created successfully.')).toBeVisible();
  await expect(dialog).toBeHidden();

  // The newest user is on the last page.
  const count = await userCount(request);
  await page.goto(`/admin?page=${Math.ceil(count / PAGE_SIZE)}`);
  const row = page.getByTestId('user-row').filter({ hasText: address });
  await expect(row).toContainText('Ewa Zielińska');
  await expect(row).toContainText('Superuser');

  await row.getByRole('button', { name: `Actions for ${address}` }).click();
  await page.getByRole('menuitem', { name: 'Edit User' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit User' });
  await expect(edit.getByRole('textbox', { name: 'Email', exact: true })).toHaveValue(address);
  await edit.getByRole('textbox', { name: 'Full name' }).fill('Ewa Zielińska-Nowak');
  await edit.getByRole('textbox', { name: 'Set Password', exact: true }).fill('short');
  await edit.getByRole('textbox', { name: 'Full name' }).focus();
  await expect(edit.getByText('Password must be at least 8 characters')).toBeVisible();
  await edit.getByRole('textbox', { name: 'Set Password', exact: true }).fill('');
  await edit.getByLabel('Is superuser?').uncheck();
  await snap(page, 'admin-edit-user', { fullPage: false });
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'User updated successfully.')).toBeVisible();
  await expect(row).toContainText('Ewa Zielińska-Nowak');
  await expect(row.getByRole('cell', { name: 'User', exact: true })).toBeVisible();
  // The password was left out of the update: the old one still works.
  expect(await apiToken(request, address, 'Added-User-Pass-1')).toBeTruthy();

  await row.getByRole('button', { name: `Actions for ${address}` }).click();
  await page.getByRole('menuitem', { name: 'Delete User' }).click();
  const confirmDialog = page.getByRole('dialog', { name: 'Delete User' });
  await expect(confirmDialog).toContainText('All items associated with this user will also be permanently deleted.');
  await snap(page, 'admin-delete-user', { fullPage: false });
  await confirmDialog.getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page, 'The user was deleted successfully')).toBeVisible();
  await expect(page.getByTestId('user-row').filter({ hasText: address })).toHaveCount(0);
});

test('a user who is not a superuser is sent away from /admin', async ({ page, request }) => {
  const user = newUser('plain');
  await createUser(request, user);
  await signInWithToken(page, request, user.email, user.password);
  await page.goto('/admin');
  await expect(page.getByTestId('greeting')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await page.getByTestId('user-menu').click();
  await expect(page.getByRole('menuitem', { name: 'Admin' })).toHaveCount(0);
});

import {
  ADMIN,
  createUser,
  expect,
  firstLink,
  logIn,
  newUser,
  skipWithoutChromium,
  snap,
  test,
  toast,
  uniqueEmail,
  waitForMail,
} from './support/fixtures';

skipWithoutChromium();

test('log in: validation, a wrong password, then in and out again', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: 'Zaloguj' })).toBeDisabled();
  await snap(page, 'login');

  const email = page.getByLabel('Adres email');
  const password = page.getByRole('textbox', { name: 'Hasło', exact: true });
  await email.fill('');
  await password.focus();
  await expect(page.getByText('Podaj adres email')).toBeVisible();
  await email.fill('admin@');
  await password.fill('short');
  await email.focus();
  await expect(page.getByText('Niepoprawny adres email')).toBeVisible();
  await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
  await snap(page, 'login-validation');

  await email.fill(ADMIN.email);
  await password.fill('wrong-password');
  await page.getByRole('button', { name: 'Zaloguj' }).click();
  await expect(toast(page, 'Something went wrong!')).toContainText('Incorrect email or password');
  await expect(page).toHaveURL(/\/login$/);

  await password.fill(ADMIN.password);
  await page.getByRole('button', { name: 'Zaloguj' }).click();
  await expect(page.getByTestId('greeting')).toHaveText(/^Hi, /);
  await expect(page.getByText('Witamy na stronie')).toBeVisible();
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Strona główna' })).toBeVisible();
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Badania' })).toBeVisible();
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Dodaj badanie' })).toBeVisible();
  await snap(page, 'home');

  // Below 768 px the top bar's links move into a menu.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('banner').getByRole('link', { name: 'Badania' })).toBeHidden();
  await page.getByRole('button', { name: 'Otwórz menu' }).click();
  await expect(page.getByRole('link', { name: 'Dodaj badanie', exact: true })).toBeVisible();
  await snap(page, 'home-menu', { only: 'mobile' });
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByTestId('user-menu').click();
  await snap(page, 'user-menu', { only: 'desktop', fullPage: false });
  await page.getByRole('menuitem', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
  await page.goto('/research');
  await expect(page).toHaveURL(/\/login$/);
});

test('sign up: a visitor follows the link on /login; the form validates; the new account waits for approval', async ({
  page,
  request,
}) => {
  await page.goto('/login');
  await page.getByRole('link', { name: 'Sign Up' }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await expect(page.getByRole('heading', { name: 'Sign Up' })).toBeVisible();
  await snap(page, 'signup');

  const colleague = { email: uniqueEmail('signup'), password: 'Colleague-Pass-42', name: 'Anna Kowalska' };
  await page.getByLabel('Full Name').fill('An');
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill('anna@');
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(colleague.password);
  await page.getByLabel('Confirm Password').fill('something-else');
  await page.getByLabel('Full Name').focus();
  await expect(page.getByText('Full Name must be at least 3 characters')).toBeVisible();
  await expect(page.getByText('Niepoprawny adres email')).toBeVisible();
  await expect(page.getByText('The passwords do not match')).toBeVisible();
  await expect(page.getByTestId('password-strength')).toContainText('High');
  await expect(page.getByRole('button', { name: 'Sign Up' })).toBeDisabled();
  await snap(page, 'signup-validation');

  await page.getByLabel('Full Name').fill(colleague.name);
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(colleague.email);
  await page.getByLabel('Confirm Password').fill(colleague.password);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  // The account exists but is inactive: the page says so (e2e/accounts-security.browser-spec.ts follows it to the approval).
  await expect(page.getByTestId('signup-pending')).toBeVisible();
  const refused = await request.post('/api/v1/login/access-token', {
    form: { username: colleague.email, password: colleague.password },
  });
  expect(refused.status()).toBe(400);
  expect(await refused.json()).toEqual({ detail: 'Inactive user' });
});

test('recover and reset a password through the e-mail', async ({ page, request }) => {
  const user = newUser('recover');
  await createUser(request, user);

  await page.goto('/recover-password');
  await expect(page.getByRole('heading', { name: 'Password Recovery' })).toBeVisible();
  await snap(page, 'recover-password');
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(toast(page, 'Password recovery email sent successfully.')).toBeVisible();

  const mail = await waitForMail(user.email);
  const link = new URL(firstLink(mail));
  expect(link.pathname).toBe('/reset-password');
  expect(link.searchParams.get('token')).toBeTruthy();

  await page.goto(link.pathname + link.search);
  await expect(page.getByRole('heading', { name: 'Reset Password' })).toBeVisible();
  const newPassword = 'Brand-New-Pass-77';
  await page.getByLabel('New Password').fill(newPassword);
  await page.getByLabel('Confirm Password').fill('Brand-New-Pass-78');
  await page.getByLabel('New Password').focus();
  await expect(page.getByText('The passwords do not match')).toBeVisible();
  await snap(page, 'reset-password');
  await page.getByLabel('Confirm Password').fill(newPassword);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(toast(page, 'Password updated successfully.')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  await logIn(page, user.email, newPassword);
  await expect(page.getByTestId('greeting')).toHaveText(`Hi, ${user.full_name}`);
});

test('an unknown address shows the 404 page', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByText('404')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Oops!' })).toBeVisible();
  await expect(page.getByText('The page you are looking for was not found.')).toBeVisible();
  await snap(page, 'not-found');
  await page.getByRole('link', { name: 'Go Back' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

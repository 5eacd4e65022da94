import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  test as base,
  expect,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Page,
} from '@playwright/test';
import { simpleParser } from 'mailparser';

import { CHROMIUM_MISSING, CHROMIUM_REASON } from './chromium';

export { expect };

/** Reported by every page (see `test` below): a CSP violation as a console error with this prefix. */
const CSP_REPORT = 'CSP violation:';

/** Makes every page of the context report Content-Security-Policy violations, and collects them. */
async function watchCsp(context: BrowserContext, violations: string[]): Promise<void> {
  await context.addInitScript((prefix: string) => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(
        `${prefix} ${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber} (${e.sample})`,
      );
    });
  }, CSP_REPORT);
  context.on('console', (message) => {
    const text = message.text();
    // Chromium's own report ("Refused to … because it violates the following Content Security Policy directive")
    // also covers what happens before the init script runs.
    if (text.startsWith(CSP_REPORT) || /violates the following Content Security Policy/.test(text))
      violations.push(`${message.page()?.url() ?? ''}: ${text}`);
  });
}

/**
 * Playwright's `test`, failing any test during which a page (of the default context or of any
 * context the test opens) violated the dashboard's Content-Security-Policy.
 */
export const test = base.extend<{ cspViolations: string[] }>({
  cspViolations: [
    async ({ context, browser }, use) => {
      const violations: string[] = [];
      await watchCsp(context, violations);
      const b = browser as Browser & { newContext: Browser['newContext'] };
      const original = b.newContext;
      b.newContext = async (...args: Parameters<Browser['newContext']>) => {
        const created = await original.apply(b, args);
        await watchCsp(created, violations);
        return created;
      };
      try {
        await use(violations);
      } finally {
        b.newContext = original;
      }
      expect(violations, 'Content-Security-Policy violations').toEqual([]);
    },
    { auto: true },
  ],
});

/**
 * Skips every test of the calling file when Debian's Chromium is not installed: Playwright's own
 * browsers are downloaded from outside the npm registry, which a newcomer's `npm test` must not need,
 * so on a machine without the Debian package these tests cannot run and say so (CHROMIUM_REASON).
 * Where a browser is required (CI sets REQUIRE_CHROMIUM=1 after installing it), a missing one
 * fails the run instead of skipping it.
 */
export function skipWithoutChromium(): void {
  if (CHROMIUM_MISSING && process.env.REQUIRE_CHROMIUM === '1') throw new Error(CHROMIUM_REASON);
  // Skipped only without Debian's Chromium (a fresh machine's `npm test`); the reason is printed with each skip.
  test.skip(CHROMIUM_MISSING, CHROMIUM_REASON); // reason: no browser on this machine; CI requires one (above)
}

/**
 * The first superuser of the suite's server (playwright.config.ts sets FIRST_SUPERUSER_PASSWORD: with
 * the default password the account would first have to choose a new one, see accounts-security.browser-spec.ts).
 */
export const ADMIN = { email: 'admin@example.com', password: 'e2e-admin-password-1' };
export const API = '/api/v1';

let counter = 0;
export function uniqueEmail(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}@example.com`;
}

// --- Screenshots -------------------------------------------------------------------------------

const SCREENSHOTS = resolve(dirname(fileURLToPath(import.meta.url)), '../../test-results/screenshots');
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

/** Saves the page at 1280×800 and 390×844 (full page) as test-results/screenshots/<name>-<w>x<h>.png. */
export async function snap(
  page: Page,
  name: string,
  options: { fullPage?: boolean; only?: 'desktop' | 'mobile' } = {},
): Promise<void> {
  const original = page.viewportSize();
  const viewports = VIEWPORTS.filter((v) => !options.only || (options.only === 'mobile') === v.width < 768);
  for (const viewport of viewports) await shootAt(page, name, viewport, options.fullPage ?? true);
  if (original && !options.only) await page.setViewportSize(original);
}

/** Saves the page at one viewport (which it keeps) as test-results/screenshots/<name>-<w>x<h>.png. */
export async function shootAt(
  page: Page,
  name: string,
  viewport: { width: number; height: number },
  fullPage = true,
): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.setViewportSize(viewport);
  // A full-page shot of a scrolled page draws the fixed top bar where the viewport was.
  if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(350); // Layout and Mantine transitions settle.
  await page.screenshot({
    path: join(SCREENSHOTS, `${name}-${viewport.width}x${viewport.height}.png`),
    fullPage,
    animations: 'disabled',
  });
}

// --- Accounts ----------------------------------------------------------------------------------

/** The first superuser's Authorization header, for the API's own requests in a test. */
export async function adminHeaders(request: APIRequestContext): Promise<{ Authorization: string }> {
  return { Authorization: `Bearer ${await apiToken(request, ADMIN.email, ADMIN.password)}` };
}

export async function apiToken(request: APIRequestContext, email: string, password: string): Promise<string> {
  const response = await request.post(`${API}/login/access-token`, { form: { username: email, password } });
  expect(response.ok(), `login ${email}: ${response.status()}`).toBeTruthy();
  const body = (await response.json()) as { access_token: string };
  return body.access_token;
}

export interface NewUser {
  email: string;
  password: string;
  full_name: string;
  is_superuser?: boolean;
}

/** Creates a user through the API as the first superuser (test data, not what is under test). */
export async function createUser(request: APIRequestContext, user: NewUser): Promise<{ id: string }> {
  const token = await apiToken(request, ADMIN.email, ADMIN.password);
  const response = await request.post(`${API}/users`, {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      email: user.email,
      password: user.password,
      full_name: user.full_name,
      is_superuser: user.is_superuser ?? false,
      is_active: true,
    },
  });
  expect(response.ok(), `create ${user.email}: ${response.status()} ${await response.text()}`).toBeTruthy();
  return (await response.json()) as { id: string };
}

export function newUser(prefix = 'staff', overrides: Partial<NewUser> = {}): NewUser {
  const name = `${prefix.charAt(0).toUpperCase()}${prefix.slice(1)}`;
  return { email: uniqueEmail(prefix), password: 'Furnace-Pass-2025', full_name: `Jan ${name}`, ...overrides };
}

/** Logs in through the login screen. */
export async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Adres email').fill(email);
  await page.getByRole('textbox', { name: 'Hasło', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Zaloguj' }).click();
  await expect(page.getByTestId('greeting')).toBeVisible();
}

/** Starts a session without the login screen: the token goes where the app keeps it. */
export async function signInWithToken(
  page: Page,
  request: APIRequestContext,
  email: string,
  password: string,
): Promise<string> {
  const token = await apiToken(request, email, password);
  await page.goto('/login');
  await page.evaluate((value) => localStorage.setItem('access_token', value), token);
  return token;
}

// --- E-mail (the outbox of the embedded system) --------------------------------------------------

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  file: string;
}

async function readOutbox(): Promise<OutboxMail[]> {
  const dir = join(process.env.E2E_DATA_DIR ?? '', 'outbox');
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .map((f) => join(dir, f))
    .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs);
  const mails: OutboxMail[] = [];
  for (const file of files) {
    const parsed = await simpleParser(readFileSync(file));
    const to = Array.isArray(parsed.to) ? parsed.to.map((a) => a.text).join(', ') : (parsed.to?.text ?? '');
    mails.push({ to, subject: parsed.subject ?? '', text: parsed.text ?? '', file });
  }
  return mails;
}

export async function mailsTo(address: string): Promise<OutboxMail[]> {
  return (await readOutbox()).filter((m) => m.to.toLowerCase().includes(address.toLowerCase()));
}

/** Waits until `address` has at least `count` e-mails and returns the newest. */
export async function waitForMail(address: string, count = 1): Promise<OutboxMail> {
  await expect
    .poll(async () => (await mailsTo(address)).length, { timeout: 20_000, message: `e-mails to ${address}` })
    .toBeGreaterThanOrEqual(count);
  return (await mailsTo(address)).at(-1) as OutboxMail;
}

/** The first http(s) link of an e-mail's plain text. */
export function firstLink(mail: OutboxMail): string {
  const match = /https?:\/\/\S+/.exec(mail.text);
  if (!match) throw new Error(`no link in the e-mail "${mail.subject}"`);
  return match[0];
}

/** A toast with the given text. */
export function toast(page: Page, text: string | RegExp) {
  return page.locator('.mantine-Notification-root').filter({ hasText: text }).last();
}

/**
 * How a test's DAQ signs in to the system's embedded broker (anonymous clients are refused,
 * docs/behaviour.md "DAQ credentials"): the installation account `npm start` keeps in its data directory.
 */
export function daqSignIn(): { username: string; password: string } {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set (playwright.config.ts sets it)');
  return { username: 'daq', password: readFileSync(join(dataDir, 'daq-password'), 'utf8').trim() };
}

import type { APIRequestContext, Page } from '@playwright/test';
import {
  ADMIN,
  API,
  apiToken,
  expect,
  signInWithToken,
  skipWithoutChromium,
  snap,
  test,
  uniqueEmail,
} from './support/fixtures';
import { violations } from './support/axe';

/*
 * Accessibility: axe-core's WCAG 2.1 A and AA rules on the pages staff, clients and the wall display
 * use, in both colour schemes the dashboard offers (docs/behaviour.md §9: light, and dark, as the
 * monitor is shown on a wall in a dark lab). A serious or critical violation fails the test, listed
 * with its rule, the element and, for colour contrast, the colours and the ratio against the one asked.
 * The pages show the demo test of `npm start` (libs/simulator/src/demo.ts), live from the simulated DAQ.
 * What is drawn on a canvas (the ECharts curves and legends, the thermocouples on the photo) is pixels
 * to axe: no rule reads it, so no rule is disabled or excluded for it here.
 */
skipWithoutChromium();

const SCHEMES = ['light', 'dark'] as const;
type Scheme = (typeof SCHEMES)[number];

/** Every page opened by the test shows the given colour scheme (the choice a user saves in Settings → Appearance). */
async function useScheme(page: Page, scheme: Scheme): Promise<void> {
  await page.addInitScript((value) => localStorage.setItem('theme', value), scheme);
}

/** The demo research `npm start` creates (libs/simulator/src/demo.ts), found on the list as staff see it. */
async function demoResearchId(request: APIRequestContext): Promise<string> {
  const token = await apiToken(request, ADMIN.email, ADMIN.password);
  const response = await request.get(`${API}/research`, { headers: { Authorization: `Bearer ${token}` } });
  expect(response.ok(), `research list: ${response.status()}`).toBeTruthy();
  const { data } = (await response.json()) as { data: { id: string; name: string }[] };
  const demo = data.find((r) => r.name.startsWith('Demo:'));
  if (!demo) throw new Error('the demo research of `npm start` is not on the list');
  return demo.id;
}

/** A client's invitation code for the research (what the invitation e-mail's link carries). */
async function clientCode(request: APIRequestContext, researchId: string): Promise<string> {
  const token = await apiToken(request, ADMIN.email, ADMIN.password);
  const response = await request.post(`${API}/research/emails`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { research_id: researchId, email: uniqueEmail('a11y-client') },
  });
  expect(response.ok(), `client e-mail: ${response.status()}`).toBeTruthy();
  return ((await response.json()) as { id: string }).id;
}

interface Screen {
  name: string;
  /** Opens the page (signed in as staff unless it is a client's or the login page) and waits until it shows its content. */
  open(page: Page, request: APIRequestContext, researchId: string): Promise<void>;
}

/** The first content a page waits for: the live pages show it once the stream has delivered. */
const SHOWN = { timeout: 60_000 };

const staff = async (page: Page, request: APIRequestContext) => {
  await signInWithToken(page, request, ADMIN.email, ADMIN.password);
};

const SCREENS: Screen[] = [
  {
    name: 'login',
    open: async (page) => {
      await page.goto('/login');
      await expect(page.getByRole('button', { name: 'Zaloguj' })).toBeVisible(SHOWN);
    },
  },
  {
    name: 'list',
    open: async (page, request, id) => {
      await staff(page, request);
      await page.goto('/research');
      await expect(page.locator(`a[href$="/research/${id}/edit"]`).first()).toBeVisible(SHOWN);
    },
  },
  {
    name: 'staff-live',
    open: async (page, request, id) => {
      await staff(page, request);
      await page.goto(`/research/${id}/view`);
      await expect(page.getByTestId('criteria-panel')).toBeVisible(SHOWN);
      await expect(page.getByTestId('exclusion-controls')).toBeVisible(SHOWN);
    },
  },
  {
    name: 'history',
    open: async (page, request, id) => {
      await staff(page, request);
      await page.goto(`/research/${id}/history`);
      // The history starts at ignition, a minute into the demo: until then the page says so and asks again.
      await expect(page.getByTestId('history-chart')).toBeVisible({ timeout: 120_000 });
      await expect(page.getByTestId('criteria-summary')).toBeVisible(SHOWN);
    },
  },
  {
    name: 'monitor',
    open: async (page, request, id) => {
      await staff(page, request);
      await page.goto(`/research/${id}/monitor`);
      await expect(page.getByTestId('monitor-pk-value')).toHaveText(/\d/, SHOWN);
    },
  },
  {
    name: 'edit',
    open: async (page, request, id) => {
      await staff(page, request);
      await page.goto(`/research/${id}/edit`);
      await expect(page.getByRole('textbox', { name: 'Nazwa badania' })).toHaveValue(/^Demo:/, SHOWN);
    },
  },
  {
    name: 'client-live',
    open: async (page, request, id) => {
      await page.goto(`/view/${id}?code=${await clientCode(request, id)}`);
      await expect(page.getByTestId('criteria-panel')).toBeVisible(SHOWN);
    },
  },
];

test.describe('WCAG 2.1 AA (axe-core) on the pages of a running test', () => {
  test.setTimeout(180_000);
  let researchId = '';

  test.beforeAll(async ({ request }) => {
    researchId = await demoResearchId(request);
  });

  for (const scheme of SCHEMES) {
    for (const screen of SCREENS) {
      test(`${screen.name}, ${scheme}: no serious or critical violation`, async ({ page, request }) => {
        await useScheme(page, scheme);
        await screen.open(page, request, researchId);
        await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
        await page.waitForTimeout(500); // Mantine's transitions and the charts' first paint settle.
        const found = await violations(page);
        await snap(page, `a11y-${screen.name}-${scheme}`, { only: 'desktop', fullPage: false });
        if (found.length > 0) console.log(`${screen.name}, ${scheme}:\n  ${found.join('\n  ')}`);
        expect(found, `${screen.name} (${scheme}): serious or critical WCAG 2.1 AA violations`).toEqual([]);
      });
    }
  }
});

import { readFileSync } from 'node:fs';
import { connectAsync } from 'mqtt';
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
  daqSignIn,
} from './support/fixtures';
import { configFile, createResearchByApi, photo } from './support/research';

/*
 * The test's life after it ends (docs/behaviour.md, "The permanent record"): one member of staff reviews it on
 * the history page, another approves it, and then every control that would change its record is disabled with
 * the reason, the documents of revision 1 download as issued, and the DAQ's frames are no longer stored.
 */
skipWithoutChromium();

const iso834 = (t: number) => 20 + 345 * Math.log10((8 * t) / 60 + 1);

test.describe.serial('reviewing and approving an ended test', () => {
  const reviewer = newUser('reviewer');
  const approver = newUser('approver');
  let researchId = '';
  let researchName = '';
  const frames = async (request: Parameters<typeof apiToken>[0]) => {
    const token = await apiToken(request, ADMIN.email, ADMIN.password);
    return (
      (await (
        await request.get(`${API}/research/${researchId}/history?points=2`, {
          headers: { Authorization: `Bearer ${token}` },
        })
      ).json()) as { frames: number }
    ).frames;
  };
  const publish = async (times: number[]) => {
    const client = await connectAsync(`mqtt://127.0.0.1:${process.env.E2E_MQTT_PORT}`, {
      ...daqSignIn(),
      clientId: `e2e-review-${Date.now()}`,
      clean: true,
    });
    try {
      await Promise.all(
        times.map((t) =>
          client.publishAsync(
            `furnace/${researchId}/data`,
            JSON.stringify({ time: t, pk: iso834(t), thermocouples_out: [20 + t / 60, 21, 22, 20] }),
            { qos: 1 },
          ),
        ),
      );
    } finally {
      await client.endAsync();
    }
  };

  test('an ended test with its readings, and two members of staff', async ({ request }) => {
    await createUser(request, reviewer);
    await createUser(request, approver);
    researchName = `Drzwi EI60 – zatwierdzenie ${Date.now().toString(36)}`;
    // Scheduled from three hours ago to one hour ago: it has ended.
    researchId = (await createResearchByApi(request, researchName, new Date(Date.now() - 3 * 3600_000), 2)).id;
    const token = await apiToken(request, ADMIN.email, ADMIN.password);
    const upload = await request.post(`${API}/research/thermo`, {
      headers: { Authorization: `Bearer ${token}` },
      multipart: { research_id: researchId, image_file: photo('drzwi.png'), config_file: configFile('drzwi.txt') },
    });
    expect(upload.ok(), `upload config: ${upload.status()} ${await upload.text()}`).toBeTruthy();
    await publish(Array.from({ length: 31 }, (_, i) => i * 10));
    await expect.poll(() => frames(request)).toBe(31);
  });

  test('one member of staff reviews it on the history page', async ({ page, request }) => {
    await signInWithToken(page, request, reviewer.email, reviewer.password);
    await page.goto(`/research/${researchId}/history`);
    const panel = page.getByTestId('review-panel');
    await expect(page.getByTestId('state-badge').first()).toHaveText('Zakończone');
    await page.getByRole('button', { name: 'Oznacz jako sprawdzone' }).click();
    await page.getByTestId('review-text').fill('Zapis pieca zgodny z protokołem');
    await page.getByTestId('review-confirm').click();
    await expect(toast(page, 'Badanie oznaczone jako sprawdzone')).toBeVisible();
    await expect(page.getByTestId('state-badge').first()).toHaveText('Sprawdzone');
    await expect(panel.getByTestId('reviewed-by')).toContainText(`Sprawdzenie: ${reviewer.email}`);
    await expect(panel.getByTestId('reviewed-by')).toContainText('Komentarz: Zapis pieca zgodny z protokołem');
    // The reviewer does not approve their own review.
    await expect(page.getByRole('button', { name: 'Zatwierdź' })).toBeDisabled();
    await expect(page.getByText(`Zatwierdza inna osoba niż sprawdzająca (${reviewer.email}).`)).toBeVisible();
  });

  test('another approves it: revision 1, its documents downloaded as issued', async ({ page, request }) => {
    await signInWithToken(page, request, approver.email, approver.password);
    await page.goto(`/research/${researchId}/history`);
    await page.getByRole('button', { name: 'Zatwierdź' }).click();
    await expect(page.getByText('jako rewizję 1')).toBeVisible();
    await page.getByTestId('review-confirm').click();
    await expect(toast(page, 'Badanie zatwierdzone jako rewizja 1')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('state-badge').first()).toHaveText('Zatwierdzone · rewizja 1');
    await expect(page.getByTestId('approved-by')).toContainText(`Zatwierdzenie: ${approver.email}`);
    const revision = page.getByTestId('revision-1');
    await expect(revision).toContainText(reviewer.email);
    await snap(page, 'history-approved', { only: 'desktop' });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      revision.getByRole('button', { name: 'Raport PDF (PL), rewizja 1' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`raport-${researchName}-rev1.pdf`);
    const bytes = readFileSync(await download.path());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // The same bytes as the API keeps for revision 1.
    const token = await apiToken(request, approver.email, approver.password);
    const stored = await request.get(`${API}/research/${researchId}/report.pdf?revision=1`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(Buffer.compare(await stored.body(), bytes)).toBe(0);

    await page.getByRole('button', { name: 'Sprawdź integralność danych' }).click();
    await expect(revision.getByTestId('verify-result')).toHaveText('Rewizja 1: dane zgodne');
  });

  test('then every control that would change its record is disabled, with the reason', async ({ page, request }) => {
    const reason =
      'Badanie jest zatwierdzone (rewizja 1): superużytkownik musi je najpierw ponownie otworzyć, by cokolwiek zmienić.';
    await signInWithToken(page, request, approver.email, approver.password);
    await page.goto('/research');
    await expect(
      page
        .getByTestId('research-table')
        .locator('tbody tr')
        .filter({ hasText: researchName })
        .getByTestId('state-badge'),
    ).toHaveText('Zatwierdzone · rewizja 1');

    await page.goto(`/research/${researchId}/edit`);
    await expect(page.getByTestId('frozen-note').first()).toHaveText(reason);
    await expect(
      page.getByRole('region', { name: 'Informacje podstawowe' }).getByRole('button', { name: 'Edytuj' }),
    ).toBeDisabled();
    await expect(page.getByTestId('t0-input')).toBeDisabled();
    await expect(page.getByTestId('t0-save')).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Dodaj rysunek' })).toBeDisabled();
    await expect(page.getByTestId('thermo-row').getByRole('button', { name: /^Usuń konfigurację/ })).toBeDisabled();
    // What only reads stays: the config file downloads. And who may watch is access, not the record.
    await expect(
      page.getByTestId('thermo-row').getByRole('button', { name: /^Pobierz plik konfiguracji/ }),
    ).toBeEnabled();
    await expect(page.getByRole('textbox', { name: 'Nowy adres email' })).toBeEnabled();
    await snap(page, 'edit-approved', { only: 'desktop' });

    // And the DAQ's frames are refused, not stored.
    await publish([400, 410]);
    await page.waitForTimeout(1000);
    expect(await frames(request)).toBe(31);
  });

  test('its archive downloads from the history page, and a superuser imports it as a new, archived test', async ({
    page,
    request,
  }) => {
    await signInWithToken(page, request, ADMIN.email, ADMIN.password);
    await page.goto(`/research/${researchId}/history`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Archiwum (.zip)' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.zip$/);
    const path = await download.path();
    expect(readFileSync(path).subarray(0, 2).toString('latin1')).toBe('PK');

    await page.goto('/audit');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('archive-import').click()]);
    await chooser.setFiles(path);
    await expect(toast(page, 'Badanie zaimportowane (31 odczytów) i zarchiwizowane')).toBeVisible({ timeout: 30_000 });
    // The copy is archived: hidden from the list, shown with the archived ones.
    const token = await apiToken(request, ADMIN.email, ADMIN.password);
    const listed = async (archived: boolean) =>
      (
        (await (
          await request.get(`${API}/research/${archived ? '?include_archived=true' : ''}`, {
            headers: { Authorization: `Bearer ${token}` },
          })
        ).json()) as { data: { name: string }[] }
      ).data.filter((r) => r.name === researchName).length;
    expect(await listed(false)).toBe(1);
    expect(await listed(true)).toBe(2);
  });
});

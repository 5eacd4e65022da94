import { screen, waitFor } from '@testing-library/react';
import type { Furnace } from '../../api/furnaces';
import { renderUi } from '../../test/render';
import { FurnaceForm, toFurnaceBody, type FurnaceFormValues } from './FurnaceForm';

const FURNACE: Furnace = {
  id: 'f-1',
  name: 'Piec poziomy',
  code: 'p1',
  scan_period_s: 1,
  standard: 'EN_1363_1',
  heating_curve: 'iso834',
  pressure_target_pa: null,
  pressure_tolerance_pa: null,
  watch_emails: ['dyzurny@lab.example'],
  webhook_url: 'https://alarms.lab.example/hook',
  webhook_secret_set: true,
  created_at: '2026-11-26T10:00:00Z',
  updated_at: '2026-11-26T10:00:00Z',
  daq_credential: null,
};

/** The watch list's own input (the tags' list is labelled by the same label). */
const watchList = () => screen.getAllByLabelText(/^Lista powiadamianych/).find((el) => el.tagName === 'INPUT')!;

const setup = async (furnace?: Furnace) => {
  const onSubmit = jest.fn((_values: FurnaceFormValues) => Promise.resolve(true));
  const view = await renderUi(<FurnaceForm furnace={furnace} onSubmit={onSubmit} onCancel={() => undefined} />);
  return { ...view, onSubmit };
};

describe('FurnaceForm: who is told of the alarms (docs/behaviour.md §17)', () => {
  it('refuses an address that is not an e-mail in the watch list, and a webhook that is not http(s)', async () => {
    const { user, onSubmit } = await setup();
    await user.type(screen.getByLabelText(/^Nazwa/), 'Piec pionowy');
    await user.type(screen.getByLabelText(/^Kod/), 'p2');
    await user.type(watchList(), 'nie-adres{Enter}');
    await user.type(screen.getByLabelText(/^Webhook alarmów/), 'ftp://lab.example/hook');
    await user.click(screen.getByRole('button', { name: 'Zapisz' }));
    expect(await screen.findByText('Lista powiadamianych: same adresy e-mail, najwyżej 50')).toBeInTheDocument();
    expect(screen.getByText('Webhook: adres http lub https')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('keeps the webhook secret it never shows: an empty field sends none, a new one replaces it', async () => {
    const { user, onSubmit } = await setup(FURNACE);
    expect(
      screen.getByText('Sekret jest ustawiony; puste pole go nie zmienia, nowy go zastępuje.'),
    ).toBeInTheDocument();
    await user.type(watchList(), 'Kierownik@Lab.example{Enter}');
    await user.click(screen.getByRole('button', { name: 'Zapisz' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    const body = toFurnaceBody(onSubmit.mock.calls[0]![0]);
    expect(body.watch_emails).toEqual(['dyzurny@lab.example', 'kierownik@lab.example']);
    expect(body.webhook_url).toBe('https://alarms.lab.example/hook');
    expect(body).not.toHaveProperty('webhook_secret');

    await user.type(screen.getByLabelText(/^Sekret webhooka/), 'a-new-secret-of-24-chars');
    await user.click(screen.getByRole('button', { name: 'Zapisz' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(2));
    expect(toFurnaceBody(onSubmit.mock.calls[1]![0]).webhook_secret).toBe('a-new-secret-of-24-chars');
  });

  it('warns that a new code changes the DAQ topic and username of a furnace whose DAQ has a credential', async () => {
    const { user } = await setup({
      ...FURNACE,
      daq_credential: { username: 'daq-p1', issued_at: '2026-11-26T10:00:00Z' },
    });
    expect(screen.queryByTestId('furnace-code-daq')).not.toBeInTheDocument();
    await user.clear(screen.getByLabelText(/^Kod/));
    await user.type(screen.getByLabelText(/^Kod/), 'p9');
    expect(screen.getByTestId('furnace-code-daq')).toHaveTextContent(
      'Nowy kod zmienia temat DAQ (lab/p9/data) i użytkownika jego poświadczenia (daq-p9)',
    );
    await user.clear(screen.getByLabelText(/^Kod/));
    await user.type(screen.getByLabelText(/^Kod/), 'p1');
    expect(screen.queryByTestId('furnace-code-daq')).not.toBeInTheDocument();
  });
});

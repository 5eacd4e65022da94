import { screen, waitFor } from '@testing-library/react';
import { renderUi } from '../../test/render';
import { ResearchCreateForm } from './ResearchCreateForm';

const CONFIG = [
  'thermo_id;name;type_name;color_hex;item_x;item_y;item_size;label_x;label_y;label_width;label_height',
  '1;T1;Tmax;#E53935;10;10;5;20;5;30;12',
  '',
].join('\n');
const BAD_CONFIG = ['1;T1;Tmax;#E5393;10;10;5;20;5;30;12', ''].join('\n');

const file = (name: string, type: string, content: string | Uint8Array<ArrayBuffer>) =>
  new File([content], name, { type });
const png = () => file('photo.png', 'image/png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

const setup = async () => {
  const onSubmit = jest.fn((_values: unknown) => Promise.resolve(true));
  const view = await renderUi(<ResearchCreateForm onSubmit={onSubmit} progress={null} />);
  return { ...view, onSubmit, submit: screen.getByRole('button', { name: 'Dodaj badanie' }) };
};

describe('ResearchCreateForm', () => {
  it('starts now and ends three hours later', async () => {
    await setup();
    const start = (screen.getByLabelText(/^Data rozpoczęcia/) as HTMLInputElement).value;
    const end = (screen.getByLabelText(/^Data zakończenia/) as HTMLInputElement).value;
    expect(Math.abs(new Date(start).getTime() - Date.now())).toBeLessThan(120_000);
    expect(new Date(end).getTime() - new Date(start).getTime()).toBe(3 * 3600_000);
  });

  it('requires a name, a link in each link row and an e-mail in each e-mail row', async () => {
    const { user, submit } = await setup();
    await user.click(screen.getByLabelText(/^Nazwa badania/));
    await user.tab();
    expect(await screen.findByText('Nazwa badania jest wymagana')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Dodaj link' }));
    await user.click(screen.getByRole('textbox', { name: /^Link 1/ }));
    await user.tab();
    expect(await screen.findByText('Link jest wymagany')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: /^Link 1/ }), 'ftp://camera');
    await user.tab();
    expect(await screen.findByText('Link musi zaczynać się od http:// lub https://')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Dodaj email' }));
    await user.click(screen.getByRole('textbox', { name: /^Email 1/ }));
    await user.tab();
    expect(await screen.findByText('Email jest wymagany')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: /^Email 1/ }), 'client@');
    await user.tab();
    expect(await screen.findByText('Niepoprawny adres email')).toBeInTheDocument();
    expect(submit).toBeDisabled();
  });

  it('refuses an end before the start', async () => {
    const { user } = await setup();
    const end = screen.getByLabelText(/^Data zakończenia/);
    await user.clear(end);
    await user.type(end, '2000-01-01T10:00');
    await user.tab();
    expect(await screen.findByText('Data zakończenia musi być późniejsza niż data rozpoczęcia')).toBeInTheDocument();
  });

  it('needs both files of a thermocouple entry and reads the config before upload', async () => {
    const { user, submit } = await setup();
    await user.type(screen.getByLabelText(/^Nazwa badania/), 'Drzwi EI60');
    await user.click(screen.getByRole('button', { name: 'Dodaj konfigurację' }));
    await user.upload(screen.getByTestId('thermo-image-0'), png());
    expect(await screen.findByText('Nie wybrano plików')).toBeInTheDocument();
    expect(submit).toBeDisabled();

    await user.upload(screen.getByTestId('thermo-config-0'), file('bad.txt', 'text/plain', BAD_CONFIG));
    expect(await screen.findByText('Plik konfiguracji zawiera błędy:')).toBeInTheDocument();
    expect(screen.getByText(/line 1, color_hex/)).toBeInTheDocument();

    await user.upload(screen.getByTestId('thermo-config-0'), file('good.txt', 'text/plain', CONFIG));
    expect(await screen.findByText('Termopary w pliku: 1')).toBeInTheDocument();
    await waitFor(() => expect(submit).toBeEnabled());
  });

  it('submits every list with the form', async () => {
    const { user, submit, onSubmit } = await setup();
    await user.type(screen.getByLabelText(/^Nazwa badania/), 'Drzwi EI60');
    await user.click(screen.getByLabelText('Ciśnienie'));
    await user.click(screen.getByRole('button', { name: 'Dodaj link' }));
    await user.type(screen.getByRole('textbox', { name: /^Link 1/ }), 'https://cams.example.com/a.m3u8');
    await user.click(screen.getByRole('button', { name: 'Dodaj email' }));
    await user.type(screen.getByRole('textbox', { name: /^Email 1/ }), 'client@example.com');
    await waitFor(() => expect(submit).toBeEnabled());
    await user.click(submit);
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({
      name: 'Drzwi EI60',
      is_pressure: true,
      is_radiance: false,
      links: [{ url: 'https://cams.example.com/a.m3u8' }],
      emails: [{ email: 'client@example.com' }],
      configs: [],
    });
  });

  it('submits whether clients see the classification and the test report fields', async () => {
    const { user, submit, onSubmit } = await setup();
    await user.type(screen.getByLabelText(/^Nazwa badania/), 'Drzwi EI60');
    const shown = screen.getByRole('checkbox', { name: /^Klienci widzą klasyfikację/ });
    expect(shown).toBeChecked();
    await user.click(shown);
    await user.type(screen.getByRole('textbox', { name: 'Numer sprawozdania' }), 'LAB/2026/017');
    await user.type(screen.getByLabelText('Data sprawozdania'), '2026-03-14');
    await user.type(screen.getByRole('textbox', { name: 'Zleceniodawca' }), 'Drzwi-Pol Sp. z o.o.');
    await user.type(screen.getByRole('textbox', { name: 'Opis próbki' }), 'Drzwi stalowe 1000 × 2100 mm');
    await user.type(screen.getByTestId('report-ambient'), '19.5');
    await waitFor(() => expect(submit).toBeEnabled());
    await user.click(submit);
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({
      classification_to_clients: false,
      report: {
        report_number: 'LAB/2026/017',
        report_date: '2026-03-14',
        sponsor: 'Drzwi-Pol Sp. z o.o.',
        specimen_description: 'Drzwi stalowe 1000 × 2100 mm',
        ambient_temperature_c: 19.5,
        pressure_height_mm: '',
        deviations: '',
      },
    });
  });

  it('refuses an ambient temperature or a measurement height outside their ranges', async () => {
    const { user, submit } = await setup();
    await user.type(screen.getByLabelText(/^Nazwa badania/), 'Drzwi EI60');
    await user.type(screen.getByTestId('report-ambient'), '150');
    await user.tab();
    expect(await screen.findByText('Temperatura otoczenia: liczba od −50 do 100 °C')).toBeInTheDocument();
    await user.type(screen.getByTestId('report-pressure-height'), '20000');
    await user.tab();
    expect(await screen.findByText('Wysokość pomiaru: liczba od 0 do 10 000 mm')).toBeInTheDocument();
    expect(submit).toBeDisabled();
  });
});

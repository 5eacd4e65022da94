import { screen, waitFor } from '@testing-library/react';
import { renderUi } from '../../../test/render';
import { BasicInfoSection } from './BasicInfoSection';
import { AddEmailForm } from './EmailsSection';
import { AddThermoForm } from './ThermoSection';
import { AddUrlForm } from './UrlsSection';
import { PROFILE_FIELDS } from '../../../test/research-fixture';

const RESEARCH = {
  id: '3f1e1c9a-8d3b-4a6e-9f0e-1b2c3d4e5f60',
  name: 'Drzwi EI60',
  start_at: '2025-11-22T08:00:00.000Z',
  end_at: '2025-11-22T11:00:00.000Z',
  is_radiance: true,
  is_furnance: false,
  is_pressure: false,
  ...PROFILE_FIELDS,
};
const noop = () => Promise.resolve();

describe('BasicInfoSection', () => {
  it('is read-only until Edytuj; Anuluj goes back; Zapisz needs a valid, changed form', async () => {
    const { user } = await renderUi(<BasicInfoSection research={RESEARCH} />);
    const name = screen.getByRole('textbox', { name: /^Nazwa badania/ });
    expect(name).toHaveAttribute('readonly');
    expect(screen.queryByRole('button', { name: 'Zapisz' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Edytuj' }));
    expect(name).not.toHaveAttribute('readonly');
    expect(screen.getByRole('button', { name: 'Anuluj' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Zapisz' })).toBeDisabled();
    await user.clear(name);
    await user.tab();
    expect(await screen.findByText('Nazwa badania jest wymagana')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Anuluj' }));
    expect(screen.getByRole('textbox', { name: /^Nazwa badania/ })).toHaveValue('Drzwi EI60');
    expect(screen.getByRole('textbox', { name: /^Nazwa badania/ })).toHaveAttribute('readonly');
    expect(screen.getByRole('button', { name: 'Edytuj' })).toBeInTheDocument();
  });
});

describe('BasicInfoSection: the test report and who sees the classification', () => {
  const filled = {
    ...RESEARCH,
    classification_to_clients: false,
    report_number: 'LAB/2026/017',
    report_date: '2026-03-14',
    sponsor: 'Drzwi-Pol Sp. z o.o.',
    ambient_temperature_c: 19.5,
    pressure_height_mm: 500,
  };

  it('shows the stored fields read-only, and editable after Edytuj', async () => {
    const { user } = await renderUi(<BasicInfoSection research={filled} />);
    const number = screen.getByRole('textbox', { name: 'Numer sprawozdania' });
    expect(number).toHaveValue('LAB/2026/017');
    expect(number).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Data sprawozdania')).toHaveValue('2026-03-14');
    expect(screen.getByTestId('report-ambient')).toHaveValue('19.5 °C');
    expect(screen.getByTestId('report-pressure-height')).toHaveValue('500 mm');
    expect(screen.getByRole('textbox', { name: 'Odstępstwa od metody badania' })).toHaveValue('');
    const shown = screen.getByRole('checkbox', { name: /^Klienci widzą klasyfikację/ });
    expect(shown).not.toBeChecked();
    expect(shown).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Edytuj' }));
    expect(number).not.toHaveAttribute('readonly');
    expect(shown).toBeEnabled();
    await user.click(shown);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Zapisz' })).toBeEnabled());
  });
});

describe('the add rows of the edit page', () => {
  it("an empty link shows the product's message 'Email jest wymagany'", async () => {
    const { user } = await renderUi(<AddUrlForm researchId={RESEARCH.id} onAdded={noop} />);
    await user.click(screen.getByRole('textbox', { name: 'Nowy link' }));
    await user.tab();
    expect(await screen.findByText('Email jest wymagany')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Dodaj' })).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: 'Nowy link' }), 'https://cams.example.com/1');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Dodaj' })).toBeEnabled());
  });

  it("an empty or malformed e-mail is refused; 'Dodaj' and 'Dodaj i wyślij' wait for a valid one", async () => {
    const { user } = await renderUi(<AddEmailForm researchId={RESEARCH.id} onChanged={noop} />);
    const email = screen.getByRole('textbox', { name: 'Nowy adres email' });
    await user.click(email);
    await user.tab();
    expect(await screen.findByText('Email jest wymagany')).toBeInTheDocument();
    await user.type(email, 'klient@');
    await user.tab();
    expect(await screen.findByText('Niepoprawny adres email')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Dodaj' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Dodaj i wyślij' })).toBeDisabled();
    await user.type(email, 'example.com');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Dodaj i wyślij' })).toBeEnabled());
  });

  it("the new address's invitation language: 'Polski' unless staff choose 'English'", async () => {
    const { user } = await renderUi(<AddEmailForm researchId={RESEARCH.id} onChanged={noop} />);
    const lang = screen.getByRole('combobox', { name: 'Język zaproszenia' });
    expect(lang).toHaveValue('Polski');
    await user.click(lang);
    await user.click(await screen.findByRole('option', { name: 'English', hidden: true }));
    expect(lang).toHaveValue('English');
  });

  it("a photo without its config: 'Nie wybrano plików'", async () => {
    const { user } = await renderUi(<AddThermoForm researchId={RESEARCH.id} onAdded={noop} />);
    await user.upload(screen.getByTestId('thermo-image'), new File(['png'], 'piec.png', { type: 'image/png' }));
    expect(await screen.findByText('Nie wybrano plików')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Dodaj' })).toBeDisabled();
  });
});

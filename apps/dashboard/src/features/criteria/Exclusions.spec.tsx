import type { ThermoExclusionDto } from '@furnace/api-client';
import * as api from '@furnace/api-client';
import { screen, waitFor } from '@testing-library/react';
import { renderUi } from '../../test/render';
import { ExclusionControls, exclusionErrors } from './Exclusions';

jest.mock('@furnace/api-client', () => ({ criteriaCreateExclusion: jest.fn(), criteriaDeleteExclusion: jest.fn() }));
const mocked = api as unknown as Record<'criteriaCreateExclusion' | 'criteriaDeleteExclusion', jest.Mock>;

const THERMOS = [
  { thermo_id: 1, name: 'T1' },
  { thermo_id: 3, name: 'T3' },
];

describe('exclusionErrors', () => {
  it('names what is missing: the thermocouple, a time ≥ 0, the reason', () => {
    expect(exclusionErrors({ thermo: null, from: '', reason: ' ' })).toEqual({
      thermo: 'exclusion.thermoRequired',
      from: 'exclusion.fromInvalid',
      reason: 'exclusion.reasonRequired',
    });
    expect(exclusionErrors({ thermo: '3', from: -5, reason: 'odpadła' })).toEqual({ from: 'exclusion.fromInvalid' });
    expect(exclusionErrors({ thermo: '3', from: 1200, reason: 'odpadła' })).toEqual({});
  });
});

describe('ExclusionControls', () => {
  beforeEach(() => jest.clearAllMocks());

  it('sends nothing while the form is incomplete, and says why', async () => {
    const { user } = await renderUi(
      <ExclusionControls
        auth={{ kind: 'staff' }}
        researchId="r1"
        exclusions={[]}
        thermocouples={THERMOS}
        now={() => 1234.5}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Wyłącz' }));
    expect(await screen.findByText('Podaj powód wyłączenia')).toBeInTheDocument();
    expect(screen.getByText('Wybierz termoparę')).toBeInTheDocument();
    expect(mocked.criteriaCreateExclusion).not.toHaveBeenCalled();
  });

  it('excludes a thermocouple from the newest frame on with a reason, and lists who did it', async () => {
    mocked.criteriaCreateExclusion.mockResolvedValue({
      data: {},
      error: undefined,
      response: { ok: true, status: 200 },
    });
    const existing: ThermoExclusionDto = {
      id: 'x1',
      research_id: 'r1',
      thermo_id: 1,
      from_time: 600,
      reason: 'odpadła',
      created_by: 'lab@example.com',
      created_at: '2026-01-01T10:00:00Z',
    };
    const { user } = await renderUi(
      <ExclusionControls
        auth={{ kind: 'staff' }}
        researchId="r1"
        exclusions={[existing]}
        thermocouples={THERMOS}
        now={() => 1234.5}
      />,
    );
    expect(screen.getByTestId('exclusion')).toHaveTextContent('T1 od 00:10:00: odpadła');
    expect(screen.getByTestId('exclusion')).toHaveTextContent('lab@example.com');
    await user.type(screen.getByRole('combobox', { name: 'Termopara' }), 'T3');
    // The dropdown's transition keeps it hidden to the accessibility tree in jsdom.
    await user.click(await screen.findByRole('option', { name: 'T3 (#3)', hidden: true }));
    await user.click(screen.getByRole('button', { name: 'Od teraz' }));
    await user.type(screen.getByRole('textbox', { name: 'Powód' }), 'pęknięty przewód');
    await user.click(screen.getByRole('button', { name: 'Wyłącz' }));
    await waitFor(() =>
      expect(mocked.criteriaCreateExclusion).toHaveBeenCalledWith({
        path: { id: 'r1' },
        body: { thermo_id: 3, from_time: 1234, reason: 'pęknięty przewód' },
      }),
    );
  });
});

import type { ObservationDto } from '@furnace/api-client';
import * as api from '@furnace/api-client';
import { screen, waitFor } from '@testing-library/react';
import { renderUi } from '../../test/render';
import { ObservationControls } from './Observations';

jest.mock('@furnace/api-client', () => ({
  criteriaCreateObservation: jest.fn(),
  criteriaUpdateObservation: jest.fn(),
  criteriaDeleteObservation: jest.fn(),
}));
const mocked = api as unknown as Record<
  'criteriaCreateObservation' | 'criteriaUpdateObservation' | 'criteriaDeleteObservation',
  jest.Mock
>;
const ok = <T,>(data: T) => Promise.resolve({ data, error: undefined, response: { ok: true, status: 200 } });

const OBSERVATION: ObservationDto = {
  id: 'o1',
  research_id: 'r1',
  time: 3820,
  kind: 'gap_6mm',
  note: null,
  visible_to_clients: false,
  created_by: 'lab@example.com',
  created_at: '2026-01-01T10:00:00Z',
};

describe('ObservationControls', () => {
  beforeEach(() => jest.clearAllMocks());

  it('records an observation with one click, at the newest frame (the server takes the time), visible when asked', async () => {
    mocked.criteriaCreateObservation.mockImplementation(({ body }: { body: { kind: string } }) =>
      ok({ ...OBSERVATION, kind: body.kind }),
    );
    const { user } = await renderUi(<ObservationControls auth={{ kind: 'staff' }} researchId="r1" observations={[]} />);
    await user.click(screen.getByRole('button', { name: 'Zapłon tamponu bawełnianego' }));
    await waitFor(() =>
      expect(mocked.criteriaCreateObservation).toHaveBeenCalledWith({
        path: { id: 'r1' },
        body: { kind: 'cotton_pad', note: null, visible_to_clients: false },
      }),
    );
    await user.click(screen.getByLabelText('Nowe obserwacje widoczne dla klientów'));
    await user.click(screen.getByRole('button', { name: 'Zatrzymanie badania' }));
    await waitFor(() =>
      expect(mocked.criteriaCreateObservation).toHaveBeenLastCalledWith({
        path: { id: 'r1' },
        body: { kind: 'test_stopped', note: null, visible_to_clients: true },
      }),
    );
  });

  it('adds a note only with its text', async () => {
    mocked.criteriaCreateObservation.mockImplementation(() =>
      ok({ ...OBSERVATION, kind: 'note', note: 'dym od góry' }),
    );
    const { user } = await renderUi(<ObservationControls auth={{ kind: 'staff' }} researchId="r1" observations={[]} />);
    const add = screen.getByRole('button', { name: 'Dodaj notatkę' });
    expect(add).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: 'Treść notatki' }), '  dym od góry ');
    await user.click(add);
    await waitFor(() =>
      expect(mocked.criteriaCreateObservation).toHaveBeenCalledWith({
        path: { id: 'r1' },
        body: { kind: 'note', note: 'dym od góry', visible_to_clients: false },
      }),
    );
  });

  it('lists the observations; the switch shows one to clients', async () => {
    mocked.criteriaUpdateObservation.mockImplementation(() => ok({ ...OBSERVATION, visible_to_clients: true }));
    const { user } = await renderUi(
      <ObservationControls auth={{ kind: 'staff' }} researchId="r1" observations={[OBSERVATION]} />,
    );
    expect(screen.getByTestId('observation')).toHaveTextContent('01:03:40 — Szczelinomierz 6 mm');
    await user.click(screen.getByRole('switch', { name: 'Pokaż klientom' }));
    await waitFor(() =>
      expect(mocked.criteriaUpdateObservation).toHaveBeenCalledWith({
        path: { id: 'o1' },
        body: { visible_to_clients: true },
      }),
    );
  });
});

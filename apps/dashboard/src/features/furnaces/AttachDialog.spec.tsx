import type { ResearchDto } from '@furnace/api-client';
import * as api from '@furnace/api-client';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { Furnace } from '../../api/furnaces';
import { PROFILE_FIELDS } from '../../test/research-fixture';
import { renderUi } from '../../test/render';
import { AttachDialog } from './AttachDialog';

jest.mock('@furnace/api-client', () => ({ researchList: jest.fn(), unassignedAttach: jest.fn() }));
const mocked = api as unknown as Record<'researchList' | 'unassignedAttach', jest.Mock>;
const ok = <T,>(data: T) => Promise.resolve({ data, error: undefined, response: { ok: true, status: 200 } });
const refused = (status: number, detail: unknown) =>
  Promise.resolve({ data: undefined, error: { detail }, response: { ok: false, status } });

const FURNACE = { id: 'f-1', name: 'Piec poziomy', code: 'p1', scan_period_s: 1 } as Furnace;
const RANGE = { from: '2026-03-01T10:00:00.250Z', to: '2026-03-01T10:04:59.750Z', frames: 300 };
const research = (id: string, name: string, fields: Partial<ResearchDto> = {}): ResearchDto =>
  ({
    id,
    name,
    start_at: '2026-03-01T09:00:00Z',
    end_at: '2026-03-01T11:00:00Z',
    is_radiance: false,
    is_furnance: true,
    is_pressure: false,
    ...PROFILE_FIELDS,
    furnace_id: 'f-1',
    state: 'ended',
    ...fields,
  }) as ResearchDto;

const setup = async () => {
  const onClose = jest.fn();
  const view = await renderUi(<AttachDialog target={{ furnace: FURNACE, range: RANGE }} onClose={onClose} />);
  return { ...view, onClose };
};

describe('AttachDialog: attaching a furnace’s unassigned readings to a test (docs/behaviour.md §15.1)', () => {
  beforeEach(() => {
    jest.clearAllMocks();
    mocked.researchList.mockImplementation(() =>
      ok({
        data: [
          research('r-other', 'Strop REI 120', { furnace_id: 'f-2' }),
          research('r-approved', 'Drzwi EI2 30', { state: 'approved' }),
          research('r-1', 'Ściana EI 60'),
        ],
      }),
    );
  });

  it('offers the furnace’s own test covering the range, sends the whole range and says how many were attached', async () => {
    mocked.unassignedAttach.mockImplementation(() =>
      ok({ attached: 298, skipped: 2, message: 'Attached 298 readings to "Ściana EI 60"; 2 skipped' }),
    );
    const { user, onClose } = await setup();
    const select = await screen.findByRole('combobox', { name: /^Badanie/ });
    await waitFor(() => expect(select).toHaveValue('Ściana EI 60 (01.03.2026, 10:00:00 – 01.03.2026, 12:00:00)'));
    await user.click(select);
    const options = await screen.findAllByRole('option', { hidden: true });
    // Another furnace's test and an approved one cannot take the readings: they are not offered.
    expect(options.map((o) => o.textContent)).toEqual(['Ściana EI 60 (01.03.2026, 10:00:00 – 01.03.2026, 12:00:00)']);
    await user.click(options[0]!);
    await user.click(screen.getByRole('button', { name: 'Dołącz' }));
    await waitFor(() =>
      expect(mocked.unassignedAttach).toHaveBeenCalledWith({
        path: { furnace_id: 'f-1' },
        body: { research_id: 'r-1', from: RANGE.from, to: RANGE.to },
      }),
    );
    expect(
      await screen.findByText(
        'Do badania „Ściana EI 60” dołączono odczyty: 298. Pominięte, bo badanie ma już odczyty w tych chwilach (zostają nieprzypisane): 2.',
      ),
    ).toBeInTheDocument();
    expect(onClose).toHaveBeenCalled();
  });

  it('shows the API’s refusal in the dialog and stays open', async () => {
    const detail =
      'Furnace "Piec poziomy" has no unassigned readings from 2026-03-01T10:00:00.250Z to 2026-03-01T10:04:59.750Z within the test\'s window (…): nothing to attach';
    mocked.unassignedAttach.mockImplementation(() => refused(409, detail));
    const { user, onClose } = await setup();
    await waitFor(() =>
      expect(screen.getByRole<HTMLInputElement>('combobox', { name: /^Badanie/ }).value).toMatch(/^Ściana EI 60/),
    );
    await user.click(screen.getByRole('button', { name: 'Dołącz' }));
    expect(await screen.findByTestId('attach-error')).toHaveTextContent(detail);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('refuses an end before the start without asking the API', async () => {
    const { user } = await setup();
    await waitFor(() =>
      expect(screen.getByRole<HTMLInputElement>('combobox', { name: /^Badanie/ }).value).toMatch(/^Ściana EI 60/),
    );
    fireEvent.change(screen.getByLabelText('Do'), { target: { value: '2026-02-28T23:59:59' } });
    await user.click(screen.getByRole('button', { name: 'Dołącz' }));
    expect(await screen.findByText('Koniec nie może być przed początkiem')).toBeInTheDocument();
    expect(mocked.unassignedAttach).not.toHaveBeenCalled();
  });
});

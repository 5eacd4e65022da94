import * as api from '@furnace/api-client';
import { screen, waitFor, within } from '@testing-library/react';
import { renderUi } from '../../test/render';
import { ResearchAuditSection } from './ResearchAuditSection';

jest.mock('@furnace/api-client', () => ({ auditResearch: jest.fn() }));

const mocked = api as unknown as Record<'auditResearch', jest.Mock>;
const ok = <T,>(data: T) => Promise.resolve({ data, error: undefined, response: { ok: true, status: 200 } });

const RESEARCH_ID = '3f1e1c9a-8d3b-4a6e-9f0e-1b2c3d4e5f60';
const entry = (id: number, fields: object) => ({
  id: String(id),
  at: '2026-03-01T08:00:00Z',
  actor: 'jan@lab.example',
  research_id: RESEARCH_ID,
  research_name: 'Drzwi EI 60',
  entity: 'research',
  entity_id: RESEARCH_ID,
  action: 'update',
  before: null,
  after: null,
  ...fields,
});

describe('ResearchAuditSection', () => {
  afterEach(() => jest.clearAllMocks());

  it("lists the test's changes: when, who, what, before → after, with the entry's values on demand (a card each on a phone)", async () => {
    mocked.auditResearch.mockImplementation(() =>
      ok({
        data: [
          entry(3, { entity: 't0', before: { t0_override: null }, after: { t0_override: 21.5 } }),
          entry(2, { entity: 'url', action: 'delete', entity_id: 'u-1', before: { url: 'https://cam.example/live' } }),
          entry(1, {
            actor: null,
            action: 'create',
            after: { name: 'Drzwi EI 60', start_at: '2026-03-01T08:00:00.000Z', end_at: '2026-03-01T12:00:00.000Z' },
          }),
        ],
        count: 3,
        page: 1,
        per_page: 20,
      }),
    );
    const { user } = await renderUi(<ResearchAuditSection researchId={RESEARCH_ID} />);
    expect(await screen.findByRole('heading', { name: 'Historia zmian' })).toBeInTheDocument();
    const rows = await screen.findAllByTestId('audit-row');
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['01.03.2026, 09:00:00', 'jan@lab.example', 'T0 ręcznie' + 'zmieniono', 'T0 [°C]: — → 21.5Szczegóły'],
      [
        '01.03.2026, 09:00:00',
        'jan@lab.example',
        'Link do transmisji' + 'usunięto',
        'Link: https://cam.example/liveSzczegóły',
      ],
      [
        '01.03.2026, 09:00:00',
        'system',
        'Badanie' + 'dodano',
        'Nazwa: Drzwi EI 60Początek: 01.03.2026, 09:00:00Koniec: 01.03.2026, 13:00:00Szczegóły',
      ],
    ]);
    expect(mocked.auditResearch).toHaveBeenCalledWith(
      expect.objectContaining({ path: { id: RESEARCH_ID }, query: { page: 1, per_page: 20 } }),
    );
    expect(screen.getAllByTestId('audit-card').map((card) => card.textContent)).toEqual([
      expect.stringMatching(/^01\.03\.2026, 09:00:00 · jan@lab\.exampleT0 ręcznie zmienionoT0 \[°C\]: — → 21\.5/),
      expect.stringMatching(/^01\.03\.2026, 09:00:00 · jan@lab\.exampleLink do transmisji usuniętoLink: https/),
      expect.stringMatching(/^01\.03\.2026, 09:00:00 · systemBadanie dodanoNazwa: Drzwi EI 60/),
    ]);
    expect(screen.getByText('wpisów: 3')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Strony historii zmian' })).not.toBeInTheDocument();

    await user.click(within(rows[0]!).getByRole('button', { name: 'Szczegóły' }));
    expect(within(rows[0]!).getByText(/"t0_override": 21.5/)).toBeInTheDocument();
    expect(within(rows[0]!).getByRole('button', { name: 'Ukryj szczegóły' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('pages through a long history', async () => {
    mocked.auditResearch.mockImplementation(({ query }: { query: { page: number } }) =>
      ok({
        data: [entry(100 - query.page, { before: { name: `Strona ${query.page}` }, after: { name: 'x' } })],
        count: 45,
        page: query.page,
        per_page: 20,
      }),
    );
    const { user } = await renderUi(<ResearchAuditSection researchId={RESEARCH_ID} />);
    expect(within(await screen.findByTestId('audit-table')).getByText('Strona 1')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '3' }));
    await waitFor(() => expect(within(screen.getByTestId('audit-table')).getByText('Strona 3')).toBeInTheDocument());
    await waitFor(() =>
      expect(mocked.auditResearch).toHaveBeenLastCalledWith(
        expect.objectContaining({ query: { page: 3, per_page: 20 } }),
      ),
    );
  });

  it('says so when there is nothing yet', async () => {
    mocked.auditResearch.mockImplementation(() => ok({ data: [], count: 0, page: 1, per_page: 20 }));
    await renderUi(<ResearchAuditSection researchId={RESEARCH_ID} />);
    expect(await screen.findByText('Brak zmian.')).toBeInTheDocument();
  });
});

import type { ResearchDto } from '@furnace/api-client';
import * as api from '@furnace/api-client';
import { screen, waitFor } from '@testing-library/react';
import { PROFILE_FIELDS } from '../../test/research-fixture';
import { renderUi } from '../../test/render';
import { ReviewPanel } from './ReviewPanel';

jest.mock('@furnace/api-client', () => ({
  usersMe: jest.fn(),
  reviewRevisions: jest.fn(),
  reviewReview: jest.fn(),
  reviewApprove: jest.fn(),
  reviewReopen: jest.fn(),
  reviewVerify: jest.fn(),
}));

type Mocked = 'usersMe' | 'reviewRevisions' | 'reviewReview' | 'reviewApprove' | 'reviewReopen' | 'reviewVerify';
const mocked = api as unknown as Record<Mocked, jest.Mock>;
const ok = <T,>(data: T) => Promise.resolve({ data, error: undefined, response: { ok: true, status: 200 } });

const REVIEWER = 'reviewer@lab.example';
const research = (fields: Partial<ResearchDto>): ResearchDto =>
  ({
    id: '3f1e1c9a-8d3b-4a6e-9f0e-1b2c3d4e5f60',
    name: 'Ściana EI 60',
    start_at: '2026-03-01T08:00:00Z',
    end_at: '2026-03-01T10:00:00Z',
    is_radiance: false,
    is_furnance: true,
    is_pressure: false,
    ...PROFILE_FIELDS,
    state: 'ended',
    ...fields,
  }) as ResearchDto;
const me = (email: string, superuser = false) =>
  mocked.usersMe.mockImplementation(() =>
    ok({ id: 'u', email, full_name: 'X', is_active: true, is_superuser: superuser }),
  );
const REVISION = {
  revision: 1,
  reviewed_by: REVIEWER,
  reviewed_at: '2026-03-02T08:00:00Z',
  review_comment: null,
  approved_by: 'approver@lab.example',
  approved_at: '2026-03-02T09:00:00Z',
  approval_comment: null,
  data_sha256: 'ab'.repeat(32),
  readings: 361,
  documents: [],
};

describe('ReviewPanel', () => {
  beforeEach(() => mocked.reviewRevisions.mockImplementation(() => ok({ data: [] })));
  afterEach(() => jest.clearAllMocks());

  it('offers the review of an ended test, with a comment', async () => {
    me(REVIEWER);
    mocked.reviewReview.mockImplementation(() =>
      ok(research({ state: 'reviewed', reviewed_by: REVIEWER, reviewed_at: '2026-03-02T08:00:00Z' })),
    );
    const { user } = await renderUi(<ReviewPanel research={research({})} />);
    expect(screen.getByTestId('state-badge')).toHaveTextContent('Zakończone');
    expect(screen.queryByRole('button', { name: 'Zatwierdź' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Oznacz jako sprawdzone' }));
    await user.type(await screen.findByTestId('review-text'), 'Zgodne z zapisem');
    await user.click(screen.getByTestId('review-confirm'));
    await waitFor(() =>
      expect(mocked.reviewReview).toHaveBeenCalledWith({
        path: { id: research({}).id },
        body: { comment: 'Zgodne z zapisem' },
      }),
    );
  });

  it('does not let the reviewer approve, and lets someone else', async () => {
    me(REVIEWER);
    const reviewed = research({ state: 'reviewed', reviewed_by: REVIEWER, reviewed_at: '2026-03-02T08:00:00Z' });
    const first = await renderUi(<ReviewPanel research={reviewed} />);
    expect(await screen.findByText(`Zatwierdza inna osoba niż sprawdzająca (${REVIEWER}).`)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Zatwierdź' })).toBeDisabled();
    first.unmount();

    me('approver@lab.example');
    await renderUi(<ReviewPanel research={reviewed} />);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Zatwierdź' })).toBeEnabled());
  });

  it('shows an approved test with its revision, its documents, and reopening for superusers only, with a reason', async () => {
    me('staff@lab.example');
    mocked.reviewRevisions.mockImplementation(() => ok({ data: [REVISION] }));
    const approved = research({
      state: 'approved',
      approved_revision: 1,
      reviewed_by: REVIEWER,
      reviewed_at: REVISION.reviewed_at,
      approved_by: REVISION.approved_by,
      approved_at: REVISION.approved_at,
    });
    const staff = await renderUi(<ReviewPanel research={approved} />);
    expect(screen.getByTestId('state-badge')).toHaveTextContent('Zatwierdzone · rewizja 1');
    expect(await screen.findByTestId('revision-1')).toHaveTextContent(REVISION.data_sha256!);
    expect(screen.getByRole('button', { name: 'Raport PDF (PL), rewizja 1' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Otwórz ponownie' })).toBeDisabled();
    staff.unmount();

    me('admin@lab.example', true);
    mocked.reviewReopen.mockImplementation(() => ok(research({ state: 'ended' })));
    const { user } = await renderUi(<ReviewPanel research={approved} />);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Otwórz ponownie' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Otwórz ponownie' }));
    expect(await screen.findByTestId('review-confirm')).toBeDisabled();
    await user.type(screen.getByTestId('review-text'), 'Błędny numer sprawozdania');
    await user.click(screen.getByTestId('review-confirm'));
    await waitFor(() =>
      expect(mocked.reviewReopen).toHaveBeenCalledWith({
        path: { id: approved.id },
        body: { reason: 'Błędny numer sprawozdania' },
      }),
    );
  });
});

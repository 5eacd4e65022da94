import * as api from '@furnace/api-client';
import { screen, waitFor, within } from '@testing-library/react';
import { renderUi } from '../../../test/render';
import { DrawingsSection } from './DrawingsSection';

jest.mock('@furnace/api-client', () => ({
  drawingsList: jest.fn(),
  drawingsDelete: jest.fn(),
  drawingsDownload: jest.fn(),
}));

const mocked = api as unknown as Record<'drawingsList' | 'drawingsDelete' | 'drawingsDownload', jest.Mock>;
const ok = <T,>(data: T) => Promise.resolve({ data, error: undefined, response: { ok: true, status: 200 } });

const RESEARCH_ID = '3f1e1c9a-8d3b-4a6e-9f0e-1b2c3d4e5f60';
const drawing = (id: string, filename: string, mime: 'application/pdf' | 'image/png', size: number) => ({
  id,
  research_id: RESEARCH_ID,
  filename,
  mime,
  size,
  created_by: 'staff@example.com',
  created_at: '2026-03-01T08:00:00Z',
});

describe('DrawingsSection', () => {
  beforeEach(() => {
    mocked.drawingsList.mockImplementation(() =>
      ok({
        data: [
          drawing('d1', 'Rysunek 1 – przekrój.pdf', 'application/pdf', 1_240_000),
          drawing('d2', 'widok.png', 'image/png', 340_200),
        ],
      }),
    );
    mocked.drawingsDelete.mockImplementation(() => ok({ message: 'Drawing deleted successfully' }));
  });
  afterEach(() => jest.clearAllMocks());

  it('lists the drawings with their sizes, each with its download and delete', async () => {
    await renderUi(<DrawingsSection researchId={RESEARCH_ID} />);
    const rows = within(await screen.findByTestId('drawings')).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual(['Rysunek 1 – przekrój.pdf1.2 MB', 'widok.png340 kB']);
    expect(screen.getByRole('button', { name: 'Pobierz widok.png' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Usuń widok.png' })).toBeInTheDocument();
  });

  it('deletes a drawing once confirmed', async () => {
    const { user } = await renderUi(<DrawingsSection researchId={RESEARCH_ID} />);
    await user.click(await screen.findByRole('button', { name: 'Usuń widok.png' }));
    expect(await screen.findByText('Czy na pewno chcesz usunąć rysunek widok.png?')).toBeInTheDocument();
    await user.click(screen.getByTestId('confirm-button'));
    await waitFor(() =>
      expect(mocked.drawingsDelete).toHaveBeenCalledWith({ path: { research_id: RESEARCH_ID, id: 'd2' } }),
    );
  });

  it('refuses a file that is no PDF or image, or larger than 20 MB, before sending it', async () => {
    const open = jest.spyOn(XMLHttpRequest.prototype, 'open');
    const { user, container } = await renderUi(<DrawingsSection researchId={RESEARCH_ID} />);
    await screen.findByTestId('drawings');
    const input = container.ownerDocument.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File(['<html>'], 'rysunek.docx', { type: 'application/pdf' }));
    expect(await screen.findByText('Rysunek musi być plikiem PDF, PNG lub JPG')).toHaveAttribute('role', 'alert');
    const big = new File(['%PDF-1.7'], 'skan.pdf', { type: 'application/pdf' });
    Object.defineProperty(big, 'size', { value: 21 * 1024 * 1024 });
    await user.upload(input, big);
    expect(await screen.findByText('Rysunek może mieć najwyżej 20 MB')).toHaveAttribute('role', 'alert');
    expect(screen.queryByText('Rysunek musi być plikiem PDF, PNG lub JPG')).not.toBeInTheDocument();
    expect(open).not.toHaveBeenCalled();
    open.mockRestore();
  });
});

describe('DrawingsSection of an approved test', () => {
  beforeEach(() =>
    mocked.drawingsList.mockImplementation(() => ok({ data: [drawing('d2', 'widok.png', 'image/png', 340_200)] })),
  );
  afterEach(() => jest.clearAllMocks());

  it('says why nothing is added or deleted, and still downloads', async () => {
    const reason =
      'Badanie jest zatwierdzone (rewizja 1): superużytkownik musi je najpierw ponownie otworzyć, by cokolwiek zmienić.';
    await renderUi(<DrawingsSection researchId={RESEARCH_ID} frozen={reason} />);
    await screen.findByTestId('drawings');
    expect(screen.getByTestId('frozen-note')).toHaveTextContent(reason);
    expect(screen.getByRole('button', { name: 'Usuń widok.png' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Dodaj rysunek' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Pobierz widok.png' })).toBeEnabled();
  });
});

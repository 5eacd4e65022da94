import { screen, within } from '@testing-library/react';
import { renderUi } from '../../test/render';
import type { ExceedanceRow } from './exceedance';
import { ExceedanceTable, wallClock } from './ExceedanceTable';

const START = '2025-07-01T08:00:00Z'; // 10:00:00 in Warsaw (CEST)

const rows: ExceedanceRow[] = [
  {
    typeName: 'Tśr i Tmax',
    kind: 'max',
    critical: 180,
    key: 'category:Tśr i Tmax:max',
    exceedance: { time: 1601, value: 180.1, exact: true, range: { from: 1601, to: 1602 } },
  },
  {
    typeName: 'Tśr i Tmax',
    kind: 'mean',
    critical: 140,
    key: 'category:Tśr i Tmax:mean',
    exceedance: { time: 1296, value: 141, exact: false, range: { from: 1296, to: 1299.6 } },
  },
  { typeName: 'TDin', kind: 'max', critical: 180, key: 'category:TDin:max', exceedance: null },
];

it('gives the time of day of a moment of the test in Warsaw', () => {
  expect(wallClock(START, 1601.7)).toBe('01.07.2025, 10:26:41');
  expect(wallClock('not a date', 1)).toBe('');
});

it('shows each criterion with its first exceedance: exact, to a bucket (≈), or none', async () => {
  await renderUi(<ExceedanceTable rows={rows} startAt={START} />);
  const [max, mean, tdin] = screen.getAllByTestId('exceedance-row');
  expect(within(max!).getByTestId('exceedance-elapsed')).toHaveTextContent(/^00:26:41$/);
  expect(within(max!).getByTestId('exceedance-clock')).toHaveTextContent('01.07.2025, 10:26:41');
  expect(within(max!).getAllByText('Tmax > 180 °C').length).toBeGreaterThan(0);
  expect(within(mean!).getByTestId('exceedance-elapsed')).toHaveTextContent('≈ 00:21:36');
  expect(within(mean!).getByText('z dokładnością do 4 s')).toBeInTheDocument();
  expect(within(tdin!).getByText('Nie przekroczono')).toBeInTheDocument();
  expect(tdin).toHaveAttribute('data-exceeded', 'false');
});

it('says so when no category has critical values', async () => {
  await renderUi(<ExceedanceTable rows={[]} startAt={START} />);
  expect(screen.getByText('Żadna kategoria termopar tego badania nie ma wartości krytycznych.')).toBeInTheDocument();
});

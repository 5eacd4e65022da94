import { sortByStartDesc } from './sort';
import { PROFILE_FIELDS } from '../../test/research-fixture';

const research = (name: string, start: string) => ({
  id: name,
  name,
  start_at: start,
  end_at: start,
  is_radiance: false,
  is_furnance: false,
  is_pressure: false,
  ...PROFILE_FIELDS,
});

it('lists researches by start time, newest first', () => {
  const sorted = sortByStartDesc([
    research('old', '2024-01-01T10:00:00Z'),
    research('new', '2025-06-01T10:00:00Z'),
    research('mid', '2024-12-31T23:59:59Z'),
  ]);
  expect(sorted.map((r) => r.name)).toEqual(['new', 'mid', 'old']);
});

import type { LabTile } from '@furnace/contracts';
import { labTile } from '../stream/testing/lab-tile';
import { daqSilent } from './lab-format';

/** A running test's tile whose last frame reached the server `ageS` seconds before `NOW`. */
const NOW = Date.parse('2026-11-26T12:00:00Z');
function tile(scanPeriodS: number, ageS: number | null): LabTile {
  return labTile('p1', {
    furnace: { id: 'f', name: 'Piec 1', code: 'p1', scan_period_s: scanPeriodS },
    running: {
      research_id: 'r',
      name: 'Ściana EI 60',
      start_at: '2026-11-26T11:00:00Z',
      end_at: '2026-11-26T14:00:00Z',
      ignition_at: '2026-11-26T11:01:00Z',
    },
    last_frame_at: ageS === null ? null : new Date(NOW - ageS * 1000).toISOString(),
  });
}

describe('daqSilent (docs/behaviour.md §17: 3 scan periods, at least 2 s)', () => {
  it('a 1 s DAQ is silent after 3 s without a frame', () => {
    expect(daqSilent(tile(1, 2.9), NOW)).toBe(false);
    expect(daqSilent(tile(1, 3.1), NOW)).toBe(true);
  });
  it('a 10 Hz DAQ is not silent between two tiles a second apart, only after 2 s', () => {
    expect(daqSilent(tile(0.1, 1.2), NOW)).toBe(false);
    expect(daqSilent(tile(0.1, 2.1), NOW)).toBe(true);
  });
  it('an idle furnace, or a test with no frame yet, is not silent', () => {
    expect(daqSilent({ ...tile(1, 10), running: null }, NOW)).toBe(false);
    expect(daqSilent(tile(1, null), NOW)).toBe(false);
  });
});

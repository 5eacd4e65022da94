import type { LabTile } from '@furnace/contracts';

/** A lab overview tile for tests: an idle furnace coded `code`, scanning every second, with `overrides`. */
export const labTile = (code: string, overrides: Partial<LabTile> = {}): LabTile => ({
  furnace: { id: `id-${code}`, name: `Piec ${code}`, code, scan_period_s: 1 },
  running: null,
  last_frame_at: null,
  deviation: null,
  hottest: null,
  forecast: null,
  alarms: { open: 0 },
  viewers: 0,
  next: null,
  ...overrides,
});

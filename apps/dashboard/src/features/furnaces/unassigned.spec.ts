import { attachCandidates, attachTimes, rangeFields, type AttachCandidate } from './unassigned';

const FURNACE = 'f-1';
// 10:00:00.250 – 10:04:59.750 UTC: the readings' times carry milliseconds.
const RANGE = { from: '2026-03-01T10:00:00.250Z', to: '2026-03-01T10:04:59.750Z', frames: 300 };
const test = (id: string, start: string, end: string, fields: Partial<AttachCandidate> = {}): AttachCandidate => ({
  id,
  name: `Badanie ${id}`,
  start_at: start,
  end_at: end,
  furnace_id: FURNACE,
  state: 'ended',
  ...fields,
});

describe('attachCandidates: the tests that may take a range of a furnace’s unassigned readings', () => {
  it('lists the furnace’s tests that are not approved, the one whose window meets the range first and suggested', () => {
    const { tests, suggested } = attachCandidates(
      [
        test('later', '2026-03-02T08:00:00Z', '2026-03-02T10:00:00Z'),
        test('covering', '2026-03-01T09:00:00Z', '2026-03-01T11:00:00Z'),
        test('other-furnace', '2026-03-01T09:00:00Z', '2026-03-01T11:00:00Z', { furnace_id: 'f-2' }),
        test('none', '2026-03-01T09:00:00Z', '2026-03-01T11:00:00Z', { furnace_id: null }),
        test('approved', '2026-02-01T09:00:00Z', '2026-02-01T11:00:00Z', { state: 'approved' }),
        test('earlier', '2026-02-27T08:00:00Z', '2026-02-27T10:00:00Z'),
      ],
      FURNACE,
      RANGE,
    );
    expect(tests.map((t) => t.id)).toEqual(['covering', 'later', 'earlier']);
    expect(suggested).toBe('covering');
  });

  it('suggests none when no window meets the range (a test ending at its first reading does not: [start, end))', () => {
    const { tests, suggested } = attachCandidates(
      [test('before', '2026-03-01T08:00:00Z', '2026-03-01T10:00:00.250Z')],
      FURNACE,
      RANGE,
    );
    expect(tests.map((t) => t.id)).toEqual(['before']);
    expect(suggested).toBeNull();
  });
});

describe('attachTimes: the instants the dialog sends', () => {
  it('sends the range’s own instants while the fields are as they came', () => {
    expect(attachTimes(RANGE, rangeFields(RANGE))).toEqual({ from: RANGE.from, to: RANGE.to });
  });

  it('narrowed: from the start of the "from" second to the end of the "to" second', () => {
    const fields = rangeFields({ ...RANGE, from: '2026-03-01T10:01:00Z', to: '2026-03-01T10:02:00Z' });
    expect(attachTimes(RANGE, fields)).toEqual({ from: '2026-03-01T10:01:00.000Z', to: '2026-03-01T10:02:00.999Z' });
  });

  it('refuses an empty or unreadable field and an end before the start', () => {
    const fields = rangeFields(RANGE);
    expect(attachTimes(RANGE, { ...fields, from: '' })).toEqual({ error: 'fromInvalid' });
    expect(attachTimes(RANGE, { ...fields, to: '1.03.2026' })).toEqual({ error: 'toInvalid' });
    const swapped = rangeFields({ ...RANGE, from: RANGE.to, to: RANGE.from });
    expect(attachTimes(RANGE, { from: swapped.from, to: '2026-01-01T00:00:00' })).toEqual({ error: 'toBeforeFrom' });
  });
});

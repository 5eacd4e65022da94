import { researchState } from './research-state';

const HOUR = 3600_000;
const NOW = Date.parse('2026-03-01T12:00:00Z');
const research = (fields: Partial<Parameters<typeof researchState>[0]> = {}) => ({
  startAt: new Date(NOW + HOUR),
  endAt: new Date(NOW + 3 * HOUR),
  reviewedAt: null,
  approvedRevision: null,
  testStopped: false,
  ignited: false,
  ...fields,
});

describe('the state of a research', () => {
  it('follows the schedule, the frames and a test_stopped observation until it is reviewed', () => {
    expect(researchState(research(), NOW)).toBe('planned');
    expect(researchState(research({ ignited: true }), NOW)).toBe('running');
    expect(researchState(research({ startAt: new Date(NOW - HOUR) }), NOW)).toBe('running');
    expect(researchState(research({ startAt: new Date(NOW - 3 * HOUR), endAt: new Date(NOW - HOUR) }), NOW)).toBe(
      'ended',
    );
    expect(researchState(research({ ignited: true, testStopped: true }), NOW)).toBe('ended');
    // Read with a research just created: no observation, no frame.
    expect(researchState(research({ testStopped: undefined, ignited: undefined }), NOW)).toBe('planned');
  });

  it('is reviewed or approved as stored, whatever the clock says', () => {
    expect(researchState(research({ reviewedAt: new Date(NOW) }), NOW)).toBe('reviewed');
    expect(researchState(research({ reviewedAt: new Date(NOW), approvedRevision: 2 }), NOW)).toBe('approved');
  });
});

import type { ResearchEntity } from '@furnace/db';
import { isApproved } from './approval';

const research = (fields: object) => ({ id: 'r-1', name: 'Drzwi EI 60', ...fields }) as unknown as ResearchEntity;

describe('isApproved', () => {
  it('holds for a research approved as a revision, the first one too', () => {
    expect(isApproved(research({ approvedRevision: 1 }))).toBe(true);
    expect(isApproved(research({ approvedRevision: 3 }))).toBe(true);
  });

  it('does not for a research never approved, or reopened since', () => {
    expect(isApproved(research({ approvedRevision: null }))).toBe(false);
    expect(isApproved(research({}))).toBe(false);
  });
});

import { ApiError, errorDetail } from '../../api/errors';

/** A refusal the form shows on one of its fields rather than only in a toast. */
export interface FieldRefusal {
  field: 'furnace_id';
  message: string;
}

/**
 * A 409 to a test scheduled on a furnace is the furnace's schedule refusing it (docs/behaviour.md §15: two tests
 * never overlap on one furnace): its message, naming the other test, goes on the furnace field.
 */
export function furnaceRefusal(error: unknown, furnaceId: string | null): FieldRefusal | null {
  if (furnaceId === null || !(error instanceof ApiError) || error.status !== 409) return null;
  const message = errorDetail(error);
  return message === null ? null : { field: 'furnace_id', message };
}

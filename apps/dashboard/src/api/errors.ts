/*
 * API errors as the dashboard reads them (docs/behaviour.md §8): `{"detail": "message"}` or, for validation
 * (422), `{"detail": [{"loc", "msg", "type"}]}`.
 */

const STATUS_NAMES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  422: 'Validation Error',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** An error's name for a status (docs/behaviour.md §8): 422 is 'Validation Error', the others their standard names. */
export function statusName(status: number): string {
  if (status === 0) return 'Network Error';
  return STATUS_NAMES[status] ?? `HTTP ${status}`;
}

/**
 * A failed API call: the HTTP status (0 when the request never got an answer), the parsed body and,
 * as the message, the status name. What users see comes from the body (errorDetail).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(statusName(status));
    this.name = 'ApiError';
  }
}

/** 401 and 403 end the session (docs/behaviour.md §8). */
export function isAuthError(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 401 || error.status === 403);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * What the error toast shows: the body's detail string, the first item's msg of a detail array,
 * otherwise null (the caller shows 'Something went wrong.').
 */
export function errorDetail(error: unknown): string | null {
  const body = error instanceof ApiError ? error.body : error;
  if (!isRecord(body)) return null;
  const { detail } = body;
  if (typeof detail === 'string' && detail.trim() !== '') return detail;
  if (Array.isArray(detail) && detail.length > 0) {
    const first: unknown = detail[0];
    if (isRecord(first) && typeof first.msg === 'string') return first.msg;
  }
  return null;
}

/** The shape every generated-client call resolves to (responseStyle 'fields', throwOnError false). */
export type ClientResult<T> = ({ data: T; error: undefined } | { data: undefined; error: unknown }) & {
  response?: Response;
};

/** Turns a generated-client result into its data, or throws an ApiError carrying the status. */
export async function unwrap<T>(call: Promise<ClientResult<T>>): Promise<T> {
  const result = await call;
  if (result.error !== undefined || !result.response?.ok) {
    throw new ApiError(result.response?.status ?? 0, result.error);
  }
  return result.data as T;
}

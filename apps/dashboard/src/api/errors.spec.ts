/** @jest-environment node */
import { ApiError, errorDetail, isAuthError, statusName, unwrap } from './errors';

describe('API errors', () => {
  it('reads the detail string, or the first msg of a validation list', () => {
    expect(errorDetail(new ApiError(400, { detail: 'Incorrect email or password' }))).toBe(
      'Incorrect email or password',
    );
    expect(
      errorDetail(
        new ApiError(422, {
          detail: [
            { loc: ['body', 'email'], msg: 'value is not a valid email address', type: 'value_error' },
            { msg: 'second' },
          ],
        }),
      ),
    ).toBe('value is not a valid email address');
    expect(errorDetail(new ApiError(500, 'Internal Server Error'))).toBeNull();
    expect(errorDetail(new ApiError(422, { detail: [] }))).toBeNull();
    expect(errorDetail(new Error('network'))).toBeNull();
  });

  it('treats 401 and 403 as the end of the session, nothing else', () => {
    expect(isAuthError(new ApiError(401, null))).toBe(true);
    expect(isAuthError(new ApiError(403, null))).toBe(true);
    expect(isAuthError(new ApiError(404, null))).toBe(false);
    expect(isAuthError(new Error('401'))).toBe(false);
  });

  it("labels 422 'Validation Error' and other statuses by their standard names", () => {
    expect(statusName(422)).toBe('Validation Error');
    expect(new ApiError(422, null).message).toBe('Validation Error');
    expect(statusName(404)).toBe('Not Found');
    expect(statusName(0)).toBe('Network Error');
    expect(statusName(418)).toBe('HTTP 418');
  });

  it('turns a generated-client result into data or an ApiError with the status', async () => {
    const ok = new Response('{}', { status: 200 });
    await expect(unwrap(Promise.resolve({ data: { id: 1 }, error: undefined, response: ok }))).resolves.toEqual({
      id: 1,
    });
    const forbidden = new Response('{}', { status: 403 });
    await expect(
      unwrap(Promise.resolve({ data: undefined, error: { detail: 'Not enough privileges' }, response: forbidden })),
    ).rejects.toMatchObject({
      status: 403,
      body: { detail: 'Not enough privileges' },
    });
    // No answer at all (network error): status 0.
    await expect(
      unwrap(Promise.resolve({ data: undefined, error: new TypeError('Failed to fetch') })),
    ).rejects.toMatchObject({
      status: 0,
    });
  });
});

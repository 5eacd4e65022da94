import { ApiError } from '../api/errors';
import { createQueryClient } from './query-client';

describe('the query client', () => {
  it('ends the session on a 401 or 403 from a query or a mutation, and only then', async () => {
    const onAuthError = jest.fn();
    const client = createQueryClient(onAuthError);
    const fail = (status: number) => () => Promise.reject(new ApiError(status, { detail: 'x' }));

    await client.fetchQuery({ queryKey: ['a'], queryFn: fail(404), retry: false }).catch(() => undefined);
    expect(onAuthError).not.toHaveBeenCalled();
    await client.fetchQuery({ queryKey: ['b'], queryFn: fail(401), retry: false }).catch(() => undefined);
    expect(onAuthError).toHaveBeenCalledTimes(1);

    const mutation = client.getMutationCache().build(client, { mutationFn: fail(403) });
    await mutation.execute(undefined).catch(() => undefined);
    expect(onAuthError).toHaveBeenCalledTimes(2);
  });
});

import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError, isAuthError } from '../api/errors';

/**
 * One client for the app. Any 401 or 403 from a query or a mutation ends the session
 * (docs/behaviour.md §8): `onAuthError` removes the token and goes to /login.
 */
export function createQueryClient(onAuthError: () => void): QueryClient {
  const handle = (error: unknown) => {
    if (isAuthError(error)) onAuthError();
  };
  return new QueryClient({
    // A public viewer's reads (meta.publicView) fail into the live view's access-denied screen instead.
    queryCache: new QueryCache({ onError: (error, query) => (query.meta?.publicView ? undefined : handle(error)) }),
    mutationCache: new MutationCache({ onError: handle }),
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        refetchOnWindowFocus: false,
        // Errors that another try cannot fix are not retried.
        retry: (failures, error) => {
          const status = error instanceof ApiError ? error.status : 0;
          return status >= 500 || status === 0 ? failures < 2 : false;
        },
      },
    },
  });
}

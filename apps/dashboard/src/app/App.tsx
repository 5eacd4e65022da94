import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { removeToken } from '../api/auth-token';
import { configureApiClient } from '../api/client';
import { i18n } from '../i18n';
import { themeStorageManager } from './color-scheme';
import { cspNonce } from './csp';
import { createQueryClient } from './query-client';
import { createAppRouter, type AppRouter } from './router';
import { cssVariablesResolver, theme } from './theme';

const colorSchemeManager = themeStorageManager();

function createApp(): { router: AppRouter; queryClient: ReturnType<typeof createQueryClient> } {
  configureApiClient();
  let ending = false;
  const queryClient = createQueryClient(() => {
    // 401/403: the session is over (docs/behaviour.md §8). Leave first, then drop the cache, so that no mounted
    // query refetches without a token.
    removeToken();
    if (ending) return;
    ending = true;
    void router
      .navigate({ to: '/login' })
      .then(() => queryClient.clear())
      .finally(() => {
        ending = false;
      });
  });
  const router = createAppRouter(queryClient);
  return { router, queryClient };
}

export function App() {
  const [{ router, queryClient }] = useState(createApp);
  return (
    <I18nextProvider i18n={i18n}>
      <MantineProvider
        theme={theme}
        cssVariablesResolver={cssVariablesResolver}
        defaultColorScheme="light"
        colorSchemeManager={colorSchemeManager}
        getStyleNonce={cspNonce}
      >
        <Notifications position="top-right" limit={4} zIndex={1000} />
        <QueryClientProvider client={queryClient}>
          <ModalsProvider>
            <RouterProvider router={router} />
          </ModalsProvider>
        </QueryClientProvider>
      </MantineProvider>
    </I18nextProvider>
  );
}

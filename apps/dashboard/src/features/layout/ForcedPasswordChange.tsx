import { Alert, Stack, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { setToken } from '../../api/auth-token';
import { changePassword, logIn, type User } from '../../api/users';
import { notifyError, notifySuccess } from '../../lib/notify';
import type { ChangePasswordValues } from '../../lib/validation';
import { ChangePasswordForm } from '../settings/PasswordTab';

/**
 * Shown instead of every page while the account must change its password (the first superuser
 * with the default one): the API refuses everything else until then. A new password revokes the
 * session's token, so the page signs in again with it and carries on.
 */
export function ForcedPasswordChange({ user }: { user: User }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: async (values: ChangePasswordValues) => {
      await changePassword(values.current_password, values.new_password);
      setToken(await logIn(user.email, values.new_password));
    },
    onSuccess: async () => {
      notifySuccess(t('settings.passwordUpdated'));
      await queryClient.resetQueries();
    },
    onError: (error) => notifyError(error),
  });
  return (
    <Stack gap="lg" maw={480} data-testid="forced-password-change">
      <Title order={1} fz="h2">
        {t('auth.forcedPasswordTitle')}
      </Title>
      <Alert color="yellow">{t('auth.forcedPasswordText')}</Alert>
      <ChangePasswordForm
        onSubmit={(values) =>
          change.mutateAsync(values).then(
            () => true,
            () => false,
          )
        }
      />
    </Stack>
  );
}

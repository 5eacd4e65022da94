import { Button, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { removeToken } from '../../api/auth-token';
import { deleteMe } from '../../api/users';
import { confirmDestructive } from '../../components/confirm';
import { notifyError, notifySuccess } from '../../lib/notify';

/** Delete own account (not offered to superusers): confirm, delete, toast, log out. */
export function DangerZoneTab() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: deleteMe,
    onSuccess: async () => {
      notifySuccess(t('settings.accountDeleted'));
      removeToken();
      await navigate({ to: '/login' });
      queryClient.clear();
    },
    onError: (error) => notifyError(error),
  });

  const ask = () =>
    confirmDestructive({
      title: t('common.confirmTitle'),
      text: t('settings.deleteAccountConfirm'),
      confirmLabel: t('settings.confirm'),
      cancelLabel: t('settings.cancel'),
      onConfirm: () => remove.mutate(),
    });

  return (
    <Stack gap="md" maw={560}>
      <Title order={2} fz="lg">
        {t('settings.deleteAccount')}
      </Title>
      <Text size="sm">{t('settings.deleteAccountText')}</Text>
      <div>
        <Button color="red" onClick={ask} loading={remove.isPending}>
          {t('settings.delete')}
        </Button>
      </div>
    </Stack>
  );
}

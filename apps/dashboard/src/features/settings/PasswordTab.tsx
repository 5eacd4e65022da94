import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Stack, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { setToken } from '../../api/auth-token';
import { changePassword, currentUserQueryOptions, logIn } from '../../api/users';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { useErrorText } from '../../components/use-error-text';
import { notifyError, notifySuccess } from '../../lib/notify';
import { changePasswordSchema, type ChangePasswordValues } from '../../lib/validation';
import { PasswordField } from '../../components/PasswordField';

const EMPTY: ChangePasswordValues = { current_password: '', new_password: '', confirm_password: '' };

export function ChangePasswordForm({ onSubmit }: { onSubmit: (values: ChangePasswordValues) => Promise<boolean> }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const {
    register,
    handleSubmit,
    reset,
    control,
    formState: { errors, isValid, isSubmitting },
  } = useForm({ mode: 'onTouched', resolver: zodResolver(changePasswordSchema), defaultValues: EMPTY });

  const submit = async (values: ChangePasswordValues) => {
    if (await onSubmit(values)) reset(EMPTY);
  };

  return (
    <form onSubmit={handleSubmit(submit)} noValidate>
      <Stack gap="md" maw={480}>
        <Title order={2} fz="lg">
          {t('settings.changePassword')}
        </Title>
        <PasswordField
          {...register('current_password')}
          label={t('settings.currentPassword')}
          autoComplete="current-password"
          error={errorText(errors.current_password)}
          required
        />
        <NewPasswordFields
          register={register}
          control={control}
          name="new_password"
          confirmName="confirm_password"
          label={t('settings.newPassword')}
          confirmLabel={t('settings.confirmPassword')}
        />
        <div>
          <Button type="submit" disabled={!isValid || isSubmitting} loading={isSubmitting}>
            {t('settings.save')}
          </Button>
        </div>
      </Stack>
    </form>
  );
}

export function PasswordTab() {
  const { t } = useTranslation();
  const { data: me } = useQuery(currentUserQueryOptions());
  const change = useMutation({
    // A new password revokes every token issued before, this session's too: sign in again with it.
    mutationFn: async (values: ChangePasswordValues) => {
      await changePassword(values.current_password, values.new_password);
      if (me) setToken(await logIn(me.email, values.new_password));
    },
    onSuccess: () => notifySuccess(t('settings.passwordUpdated')),
    onError: (error) => notifyError(error),
  });
  return (
    <ChangePasswordForm
      onSubmit={(values) =>
        change.mutateAsync(values).then(
          () => true,
          () => false,
        )
      }
    />
  );
}

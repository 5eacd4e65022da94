import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Stack } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { resetSchema, type ResetValues } from '../../lib/validation';

export function ResetPasswordForm({ onSubmit }: { onSubmit: (values: ResetValues) => Promise<void> }) {
  const { t } = useTranslation();
  const {
    register,
    handleSubmit,
    control,
    formState: { isValid, isSubmitting },
  } = useForm({
    mode: 'onTouched',
    resolver: zodResolver(resetSchema),
    defaultValues: { new_password: '', confirm_password: '' },
  });

  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate>
      <Stack gap="md">
        <NewPasswordFields
          register={register}
          control={control}
          name="new_password"
          confirmName="confirm_password"
          label={t('auth.newPassword')}
          confirmLabel={t('auth.confirmPassword')}
        />
        <Button type="submit" fullWidth disabled={!isValid || isSubmitting} loading={isSubmitting}>
          {t('auth.resetSubmit')}
        </Button>
      </Stack>
    </form>
  );
}

import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Stack } from '@mantine/core';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { PasswordStrengthBar } from '../../components/PasswordStrengthBar';
import { useErrorText } from '../../components/use-error-text';
import { resetSchema, type ResetValues } from '../../lib/validation';
import { PasswordField } from '../../components/PasswordField';

export function ResetPasswordForm({ onSubmit }: { onSubmit: (values: ResetValues) => Promise<void> }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const {
    register,
    handleSubmit,
    control,
    formState: { errors, isValid, isSubmitting },
  } = useForm({ mode: 'onTouched', resolver: zodResolver(resetSchema), defaultValues: { new_password: '', confirm_password: '' } });
  const password = useWatch({ control, name: 'new_password' });

  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate>
      <Stack gap="md">
        <div>
          <PasswordField
            {...register('new_password')}
            label={t('auth.newPassword')}
            autoComplete="new-password"
            error={errorText(errors.new_password)}
            required
          />
          <PasswordStrengthBar password={password} />
        </div>
        <PasswordField
          {...register('confirm_password')}
          label={t('auth.confirmPassword')}
          autoComplete="new-password"
          error={errorText(errors.confirm_password)}
          required
        />
        <Button type="submit" fullWidth disabled={!isValid || isSubmitting} loading={isSubmitting}>
          {t('auth.resetSubmit')}
        </Button>
      </Stack>
    </form>
  );
}

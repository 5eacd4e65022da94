import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Stack, TextInput } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../components/use-error-text';
import { recoverSchema, type RecoverValues } from '../../lib/validation';

export function RecoverPasswordForm({ onSubmit }: { onSubmit: (values: RecoverValues) => Promise<boolean> }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isValid, isSubmitting },
  } = useForm({ mode: 'onTouched', resolver: zodResolver(recoverSchema), defaultValues: { email: '' } });

  const submit = async (values: RecoverValues) => {
    if (await onSubmit(values)) reset();
  };

  return (
    <form onSubmit={handleSubmit(submit)} noValidate>
      <Stack gap="md">
        <TextInput
          {...register('email')}
          label={t('auth.email')}
          type="email"
          autoComplete="email"
          error={errorText(errors.email)}
          required
        />
        <Button type="submit" fullWidth disabled={!isValid || isSubmitting} loading={isSubmitting}>
          {t('auth.continue')}
        </Button>
        <Anchor component={Link} to="/login" size="sm" ta="center">
          {t('auth.backToLogin')}
        </Anchor>
      </Stack>
    </form>
  );
}

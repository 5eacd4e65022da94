import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { useErrorText } from '../../components/use-error-text';
import { FULL_NAME_MIN_LENGTH, signupSchema, type SignupValues } from '../../lib/validation';

export function SignUpForm({ onSubmit }: { onSubmit: (values: SignupValues) => Promise<void> }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const {
    register,
    handleSubmit,
    control,
    formState: { errors, isValid, isSubmitting },
  } = useForm({
    mode: 'onTouched',
    resolver: zodResolver(signupSchema),
    defaultValues: { full_name: '', email: '', password: '', confirm_password: '' },
  });

  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate>
      <Stack gap="md">
        <TextInput
          {...register('full_name')}
          label={t('auth.fullName')}
          autoComplete="name"
          minLength={FULL_NAME_MIN_LENGTH}
          error={errorText(errors.full_name)}
          required
        />
        <TextInput
          {...register('email')}
          label={t('auth.email')}
          type="email"
          autoComplete="email"
          error={errorText(errors.email)}
          required
        />
        <NewPasswordFields
          register={register}
          control={control}
          name="password"
          confirmName="confirm_password"
          label={t('auth.password')}
          confirmLabel={t('auth.confirmPassword')}
        />
        <Button type="submit" fullWidth disabled={!isValid || isSubmitting} loading={isSubmitting}>
          {t('auth.signup')}
        </Button>
        <Text size="sm" ta="center">
          {t('auth.haveAccount')}{' '}
          <Anchor component={Link} to="/login">
            {t('auth.logIn')}
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}

import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconLock, IconMail } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../components/use-error-text';
import { loginSchema, type LoginValues } from '../../lib/validation';
import { PasswordField } from '../../components/PasswordField';

/** `signupOpen`: show the link to /signup (hidden when the API says SIGNUP=off, and until it has said). */
export function LoginForm({
  onSubmit,
  signupOpen = false,
}: {
  onSubmit: (values: LoginValues) => Promise<void>;
  signupOpen?: boolean;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const {
    register,
    handleSubmit,
    formState: { errors, isValid, isSubmitting },
  } = useForm({ mode: 'onTouched', resolver: zodResolver(loginSchema), defaultValues: { username: '', password: '' } });

  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate>
      <Stack gap="md">
        <TextInput
          {...register('username')}
          label={t('auth.emailLabel')}
          type="email"
          autoComplete="username"
          leftSection={<IconMail size={16} aria-hidden />}
          error={errorText(errors.username)}
          required
          data-autofocus
        />
        <PasswordField
          {...register('password')}
          label={t('auth.passwordLabel')}
          autoComplete="current-password"
          leftSection={<IconLock size={16} aria-hidden />}
          error={errorText(errors.password)}
          required
        />
        <Group justify="flex-end">
          <Anchor component={Link} to="/recover-password" size="sm">
            {t('auth.forgotPassword')}
          </Anchor>
        </Group>
        <Button type="submit" fullWidth disabled={!isValid || isSubmitting} loading={isSubmitting}>
          {t('auth.login')}
        </Button>
        {signupOpen && (
          <Text size="sm" ta="center">
            {t('auth.noAccount')}{' '}
            {/* Underlined: a link inside a sentence is told from its text by more than colour (WCAG 1.4.1). */}
            <Anchor component={Link} to="/signup" underline="always">
              {t('auth.signup')}
            </Anchor>
          </Text>
        )}
      </Stack>
    </form>
  );
}

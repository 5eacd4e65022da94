import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { publicConfigQueryOptions, signUp } from '../../api/users';
import { AuthCard } from '../../components/AuthCard';
import { notifyError } from '../../lib/notify';
import { settle } from '../../lib/settle';
import type { SignupValues } from '../../lib/validation';
import { SignUpForm } from './SignUpForm';

/**
 * /signup. With SIGNUP=approval (the API's default) the new account is inactive: the page says it
 * waits for an administrator instead of going to /login. With SIGNUP=open it goes to /login (spec);
 * with SIGNUP=off there is no form.
 */
export function SignUpPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const config = useQuery(publicConfigQueryOptions());
  const [pending, setPending] = useState(false);
  const signup = useMutation({
    mutationFn: (values: SignupValues) =>
      signUp({ full_name: values.full_name.trim(), email: values.email.trim(), password: values.password }),
    onSuccess: (user) => (user.is_active ? navigate({ to: '/login' }) : setPending(true)),
    onError: (error) => notifyError(error),
  });

  const toLogin = (
    <Text size="sm" ta="center">
      <Anchor component={Link} to="/login">
        {t('auth.logIn')}
      </Anchor>
    </Text>
  );

  if (pending) {
    return (
      <AuthCard title={t('auth.signupPendingTitle')}>
        <Stack gap="md">
          <Alert color="teal" data-testid="signup-pending">
            {t('auth.signupPending')}
          </Alert>
          {toLogin}
        </Stack>
      </AuthCard>
    );
  }
  if (config.data?.signup === 'off') {
    return (
      <AuthCard title={t('auth.signupTitle')}>
        <Stack gap="md">
          <Alert color="gray" data-testid="signup-disabled">
            {t('auth.signupDisabled')}
          </Alert>
          {toLogin}
        </Stack>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t('auth.signupTitle')}>
      <SignUpForm onSubmit={(values) => settle(signup.mutateAsync(values))} />
    </AuthCard>
  );
}

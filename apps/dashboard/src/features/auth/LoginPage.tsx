import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { setToken } from '../../api/auth-token';
import { logIn, publicConfigQueryOptions } from '../../api/users';
import { AuthCard } from '../../components/AuthCard';
import { notifyError } from '../../lib/notify';
import { settle } from '../../lib/settle';
import type { LoginValues } from '../../lib/validation';
import { LoginForm } from './LoginForm';

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const config = useQuery(publicConfigQueryOptions());
  const login = useMutation({
    mutationFn: (values: LoginValues) => logIn(values.username.trim(), values.password),
    onSuccess: async (token) => {
      setToken(token);
      queryClient.clear();
      notifications.clean();
      await navigate({ to: '/' });
    },
    onError: (error) => notifyError(error),
  });

  return (
    <AuthCard title={t('auth.loginTitle')}>
      <LoginForm
        onSubmit={(values) => settle(login.mutateAsync(values))}
        signupOpen={!!config.data && config.data.signup !== 'off'}
      />
    </AuthCard>
  );
}

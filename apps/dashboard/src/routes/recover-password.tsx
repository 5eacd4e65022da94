import { createFileRoute } from '@tanstack/react-router';
import { redirectIfLoggedIn } from '../app/guards';
import { RecoverPasswordPage } from '../features/auth/RecoverPasswordPage';

export const Route = createFileRoute('/recover-password')({
  beforeLoad: redirectIfLoggedIn,
  component: RecoverPasswordPage,
});

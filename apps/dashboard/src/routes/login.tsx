import { createFileRoute } from '@tanstack/react-router';
import { redirectIfLoggedIn } from '../app/guards';
import { LoginPage } from '../features/auth/LoginPage';

export const Route = createFileRoute('/login')({
  beforeLoad: redirectIfLoggedIn,
  component: LoginPage,
});

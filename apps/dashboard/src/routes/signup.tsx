import { createFileRoute } from '@tanstack/react-router';
import { requireLogin } from '../app/guards';
import { SignUpPage } from '../features/auth/SignUpPage';

// Spec §2: the /signup guard sends a visitor without an access token to /login ("as specified,
// although odd"): accounts are signed up from a signed-in session.
export const Route = createFileRoute('/signup')({
  beforeLoad: requireLogin,
  component: SignUpPage,
});

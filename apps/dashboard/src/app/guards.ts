import { redirect } from '@tanstack/react-router';
import { isLoggedIn } from '../api/auth-token';

/** beforeLoad of the pages for signed-out visitors: a signed-in user goes to /. */
export function redirectIfLoggedIn(): void {
  if (isLoggedIn()) throw redirect({ to: '/' });
}

/** beforeLoad of the authenticated layout (and, as the spec has it, /signup): no token → /login. */
export function requireLogin(): void {
  if (!isLoggedIn()) throw redirect({ to: '/login' });
}

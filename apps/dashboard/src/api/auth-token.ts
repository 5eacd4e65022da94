/** The staff access token, kept in local storage under 'access_token' (docs/behaviour.md §4). */
const TOKEN_STORAGE_KEY = 'access_token';

export function getToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_STORAGE_KEY);
  } catch {
    return null;
  }
}

export function setToken(token: string): void {
  localStorage.setItem(TOKEN_STORAGE_KEY, token);
}

export function removeToken(): void {
  try {
    localStorage.removeItem(TOKEN_STORAGE_KEY);
  } catch {
    // Nothing stored.
  }
}

export function isLoggedIn(): boolean {
  return getToken() !== null;
}

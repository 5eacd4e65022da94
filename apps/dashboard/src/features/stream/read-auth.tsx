import { createContext, type ReactNode, useContext } from 'react';

/**
 * How a screen that reads one research authenticates: staff use their session (the client adds the
 * stored token), a client uses the viewer token exchanged for the code of their invitation link.
 */
export type ReadAuth = { kind: 'staff' } | { kind: 'viewer'; researchId: string; token: string };

/** Headers for a generated-client call made on behalf of `auth` (none for staff: the client adds them). */
export function readHeaders(auth: ReadAuth): Record<string, string> | undefined {
  return auth.kind === 'viewer' ? { Authorization: `Bearer ${auth.token}` } : undefined;
}

/** Part of every query key of data read under `auth`, so a viewer's and staff's caches never mix. */
export function readAuthKey(auth: ReadAuth): string {
  return auth.kind === 'viewer' ? `viewer:${auth.researchId}` : 'staff';
}

/**
 * Query meta for reads made by a public viewer: their 401/403 means "access denied" on the live
 * view, not "your staff session ended", so the global handler must leave the staff token alone.
 */
export const PUBLIC_VIEW_META = { publicView: true } as const;
export const queryMetaFor = (auth: ReadAuth) => (auth.kind === 'viewer' ? PUBLIC_VIEW_META : undefined);

const ReadAuthContext = createContext<ReadAuth | null>(null);

export function ReadAuthProvider({ auth, children }: { auth: ReadAuth; children: ReactNode }) {
  return <ReadAuthContext.Provider value={auth}>{children}</ReadAuthContext.Provider>;
}

export function useReadAuth(): ReadAuth {
  const auth = useContext(ReadAuthContext);
  if (!auth) throw new Error('useReadAuth() outside a ReadAuthProvider');
  return auth;
}

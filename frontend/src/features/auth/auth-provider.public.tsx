import type { CurrentUser } from '@likeness/contracts';
import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { expectFields, useApiData } from '@/public/use-api-data';
import type { useAuth as useFullAuth } from './auth-provider';

// The public pages' session (their own bundle, build-tools/public-build.ts): who is signed in,
// without the sign-in forms' mutations, which only the full app's screens use.

/** GET /api/user, as lib/session/current-user.ts reads it in the full app. */
export const CURRENT_USER_PATH = '/api/user';

export type PublicAuthValue = Pick<ReturnType<typeof useFullAuth>, 'user' | 'isLoading' | 'error'>;

const ROLES: readonly unknown[] = ['user', 'admin'] satisfies CurrentUser['role'][];

/** The fields of the contracts' currentUserSchema, checked by hand. */
export function checkCurrentUser(value: unknown): CurrentUser {
  const user = expectFields(value, { id: 'number', username: 'string', email: 'string', credits: 'number' }, 'user');
  if (!ROLES.includes(user.role)) throw new TypeError('user: role should be user or admin');
  return user as CurrentUser;
}

const AuthContext = createContext<PublicAuthValue | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const { data, error, isPending } = useApiData<CurrentUser | null>(CURRENT_USER_PATH, checkCurrentUser, {
    unauthorized: null,
  });

  // SPEC §8: a failed session check leaves the visitor signed out and is only logged.
  useEffect(() => {
    if (error) console.error('Session check failed', error);
  }, [error]);

  const value = useMemo<PublicAuthValue>(
    () => ({ user: data ?? null, isLoading: isPending, error }),
    [data, isPending, error],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): PublicAuthValue {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth must be used within an AuthProvider');
  return context;
}

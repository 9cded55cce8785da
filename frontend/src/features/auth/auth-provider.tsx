import type { CurrentUser } from '@likeness/contracts';
import { useQuery } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { currentUserQueryOptions } from '@/lib/session/current-user';
import { useLogin } from './api/login';
import { useLogout } from './api/logout';
import { useRegister } from './api/register';

export interface AuthContextValue {
  /** The signed-in user, or null for a visitor. */
  user: CurrentUser | null;
  /** True while the session check on load is in flight. */
  isLoading: boolean;
  /** A failed session check (not a 401, which just means "signed out"). */
  error: Error | null;
  loginMutation: ReturnType<typeof useLogin>;
  registerMutation: ReturnType<typeof useRegister>;
  logoutMutation: ReturnType<typeof useLogout>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const { data, error, isPending } = useQuery(currentUserQueryOptions());
  const loginMutation = useLogin();
  const registerMutation = useRegister();
  const logoutMutation = useLogout();

  // SPEC §8: a failed session check leaves the visitor signed out and is only logged.
  useEffect(() => {
    if (error) console.error('Session check failed', error);
  }, [error]);

  const value = useMemo<AuthContextValue>(
    () => ({
      user: data ?? null,
      isLoading: isPending,
      error,
      loginMutation,
      registerMutation,
      logoutMutation,
    }),
    [data, isPending, error, loginMutation, registerMutation, logoutMutation],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth must be used within an AuthProvider');
  return context;
}

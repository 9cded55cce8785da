import { render, renderHook, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { alice, mockApi } from '@/test/render-app';
import { AuthProvider, useAuth } from './auth-provider';

function Probe() {
  useAuth();
  return null;
}

describe(AuthProvider.name, () => {
  it('should make useAuth throw when used outside the provider', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});

    expect(() => render(<Probe />)).toThrow('useAuth must be used within an AuthProvider');
  });

  it('should load the signed-in user from GET /api/user', async () => {
    const fetchMock = mockApi({ user: alice });
    const client = createQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>
        <AuthProvider>{children}</AuthProvider>
      </QueryClientProvider>
    );

    const { result } = renderHook(() => useAuth(), { wrapper });

    expect(result.current.isLoading).toBe(true);
    await waitFor(() => expect(result.current.user).toEqual(alice));
    expect(result.current.isLoading).toBe(false);
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/user',
      expect.objectContaining({ method: 'GET', credentials: 'include' }),
    );
  });

  it('should treat a 401 as signed out without an error', async () => {
    mockApi();
    const client = createQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>
        <AuthProvider>{children}</AuthProvider>
      </QueryClientProvider>
    );

    const { result } = renderHook(() => useAuth(), { wrapper });

    await waitFor(() => expect(result.current.isLoading).toBe(false));
    expect(result.current.user).toBeNull();
    expect(result.current.error).toBeNull();
  });
});

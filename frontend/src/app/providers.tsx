import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ThemeProvider } from '@/components/theme-provider';
import { ToasterOnDemand } from '@/components/ui/toaster-on-demand';
import { AuthProvider } from '@/features/auth/auth-provider';
import { createAppQueryClient } from './query-client';

interface AppProvidersProps {
  children: ReactNode;
  /** Tests pass their own client; the app creates one per page load. */
  queryClient?: QueryClient;
}

export function AppProviders({ children, queryClient }: AppProvidersProps) {
  const [client] = useState(() => queryClient ?? createAppQueryClient());
  return (
    <QueryClientProvider client={client}>
      <ThemeProvider>
        <AuthProvider>
          {children}
          <ToasterOnDemand />
        </AuthProvider>
      </ThemeProvider>
    </QueryClientProvider>
  );
}

import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { ThemeProvider } from '@/components/theme-provider';
import { loadedToaster, loadToaster } from '@/components/ui/toaster-loader';
import { useToasts } from '@/components/ui/use-toast';
import { AuthProvider } from '@/features/auth/auth-provider';
import { createAppQueryClient } from './query-client';

/**
 * The toaster, mounted once the first toast is raised and kept from then on (its region, with
 * the F8 hotkey, stays for the toasts that follow). Before that there is nothing to show.
 */
function ToasterOnDemand() {
  const toasts = useToasts();
  const hasToasts = toasts.length > 0;
  const [Toaster, setToaster] = useState<ComponentType>();
  useEffect(() => {
    if (!hasToasts || Toaster) return;
    let current = true;
    // Should the download fail, the next toast asks again (the store keeps the toasts meanwhile).
    loadToaster().then(
      (loaded) => current && setToaster(() => loaded),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [toasts, hasToasts, Toaster]);
  // Its code already here (a mutation started, or an earlier toast): shown at once.
  const alreadyLoaded = loadedToaster();
  if (!Toaster && hasToasts && alreadyLoaded) setToaster(() => alreadyLoaded);
  return Toaster ? <Toaster /> : null;
}

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

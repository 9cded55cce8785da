import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { ThemeProvider } from '@/components/theme-provider';
import { useToasts } from '@/components/ui/use-toast';
import { AuthProvider } from '@/features/auth/auth-provider';
import { createAppQueryClient } from './query-client';

// Toasts only follow something the user did: their Radix code loads with the first toast (see
// ToasterOnDemand), not with the page. The store keeps that toast until the toaster shows it.
let LoadedToaster: ComponentType | undefined;

/** Fetches the toaster's code (once); the app asks on its first toast, tests before they start. */
export function loadToaster(): Promise<ComponentType> {
  return import('@/components/ui/toaster').then(({ Toaster }) => (LoadedToaster = Toaster));
}

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
  // Its code already here (an earlier page load of this module asked for it): shown at once.
  if (!Toaster && hasToasts && LoadedToaster) setToaster(() => LoadedToaster);
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

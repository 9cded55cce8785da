import type { ReactNode } from 'react';
import { ThemeProvider } from '@/components/theme-provider';
import { ToasterOnDemand } from '@/components/ui/toaster-on-demand';
import { AuthProvider } from '@/features/auth/auth-provider';

// The public pages' providers (their own bundle, build-tools/public-build.ts): no query client,
// the data hooks there read the API themselves (src/public/use-api-data.ts). Toasts only follow
// something the user did (copying an example's prompt): the toaster's code loads with the first.

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider>
      <AuthProvider>
        {children}
        <ToasterOnDemand />
      </AuthProvider>
    </ThemeProvider>
  );
}

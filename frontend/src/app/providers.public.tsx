import { lazy, Suspense, type ReactNode } from 'react';
import { ThemeProvider } from '@/components/theme-provider';
import { useToasts } from '@/components/ui/use-toast';
import { AuthProvider } from '@/features/auth/auth-provider';

// The public pages' providers (their own bundle, build-tools/public-build.ts): no query client,
// the data hooks there read the API themselves (src/public/use-api-data.ts).

// Toasts only follow something the user did (copying an example's prompt): their Radix code
// loads with the first one, which the store keeps until it is shown.
const Toaster = lazy(() => import('@/components/ui/toaster').then((module) => ({ default: module.Toaster })));

function ToasterOnDemand() {
  const wanted = useToasts().length > 0;
  return <Suspense fallback={null}>{wanted ? <Toaster /> : null}</Suspense>;
}

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

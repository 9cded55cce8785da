import { RotateCcw } from 'lucide-react';
import { useRouteError } from 'react-router';
import { Button } from '@/components/ui/button';

/** Shown instead of a blank page when a screen throws while rendering. */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  return (
    <div role="alert" className="mx-auto flex min-h-dvh max-w-md flex-col items-center justify-center px-4 text-center">
      <h1 className="text-2xl font-semibold tracking-tight">Something went wrong</h1>
      <p className="mt-3 text-muted-foreground">An unexpected error occurred. Reloading the page usually helps.</p>
      <Button variant="brand" className="mt-6" onClick={() => window.location.reload()}>
        <RotateCcw aria-hidden="true" />
        Reload
      </Button>
    </div>
  );
}

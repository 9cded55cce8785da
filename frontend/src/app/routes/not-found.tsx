import { ArrowLeft, Compass } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';

export function Component() {
  return (
    <div className="mx-auto flex w-full max-w-xl flex-1 flex-col items-center justify-center px-4 py-16 text-center sm:py-24">
      <span
        aria-hidden="true"
        className="bg-brand-gradient grid size-16 place-items-center rounded-2xl text-white shadow-lg shadow-fuchsia-500/25"
      >
        <Compass className="size-8" />
      </span>
      <h1 className="mt-6 text-2xl font-semibold tracking-tight sm:text-3xl">404 Page Not Found</h1>
      <p className="mt-3 text-muted-foreground">Did you forget to add the page to the router?</p>
      <Button asChild variant="brand" size="lg" className="mt-8">
        <Link to="/">
          <ArrowLeft aria-hidden="true" />
          Back to home
        </Link>
      </Button>
    </div>
  );
}

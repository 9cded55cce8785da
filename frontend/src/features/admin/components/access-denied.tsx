import { ADMIN_ONLY_MESSAGE } from '@likeness/contracts';
import { ShieldAlert } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';

/** SPEC §2: what a signed-in user who is not the administrator sees on /admin. */
export function AccessDenied() {
  return (
    <div className="mx-auto flex w-full max-w-md flex-1 flex-col items-center justify-center gap-5 px-4 py-16 text-center">
      <span className="grid size-16 place-items-center rounded-2xl bg-destructive/10 text-destructive">
        <ShieldAlert className="size-8" aria-hidden="true" />
      </span>
      <div className="flex flex-col gap-2">
        <h1 className="text-3xl font-semibold tracking-tight">Access Denied</h1>
        <p className="text-muted-foreground">{ADMIN_ONLY_MESSAGE}</p>
      </div>
      <Button asChild variant="brand">
        <Link to={paths.dashboard}>Return to Dashboard</Link>
      </Button>
    </div>
  );
}

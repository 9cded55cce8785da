import type { CurrentUser } from '@likeness/contracts';
import type { ComponentProps } from 'react';
import { initialsOf } from '@/lib/initials-of';

/** The account menu's button: the user's initials on the brand gradient. */
export function AccountButton({ user, ...props }: { user: CurrentUser } & ComponentProps<'button'>) {
  const initials = initialsOf(user.username);
  return (
    <button
      type="button"
      // The name holds the initials it shows, so a voice command naming them finds it.
      aria-label={`Account menu: ${initials}`}
      className="bg-brand-gradient grid size-9 place-items-center rounded-full text-sm font-semibold text-white shadow-sm ring-offset-background transition-shadow hover:shadow-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
      {...props}
    >
      {initials}
    </button>
  );
}

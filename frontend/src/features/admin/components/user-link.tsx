import { cn } from '@/lib/cn';

/**
 * A user named in a table cell, opening their details. `stretched` makes the whole row the
 * button's click target (the row is `relative`), while the keyboard reaches the one button.
 */
export function UserLink({
  userId,
  children,
  onOpen,
  stretched = false,
}: {
  userId: number;
  children: React.ReactNode;
  onOpen: (userId: number) => void;
  stretched?: boolean;
}) {
  return (
    <button
      type="button"
      onClick={() => onOpen(userId)}
      className={cn(
        'rounded-sm font-medium text-primary underline-offset-4 hover:underline',
        'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
        stretched && 'after:absolute after:inset-0 after:content-[""]',
      )}
    >
      {children}
    </button>
  );
}

import { Menu } from 'lucide-react';
import { lazy, Suspense, useRef, useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';

// The sheet's dialog code loads when the menu is first opened, not with the page.
const MobileMenuSheet = lazy(() =>
  import('./mobile-menu-sheet').then((module) => ({ default: module.MobileMenuSheet })),
);

interface MobileMenuProps {
  /** The menu's entries; `close` shuts the menu (after a link is followed, say). */
  children: (close: () => void) => ReactNode;
  className?: string;
}

/**
 * SPEC §2's mobile menu: a hamburger button opening a sheet from the right. It is a modal dialog,
 * so focus stays inside while it is open and returns to the button when it closes.
 */
export function MobileMenu({ children, className }: MobileMenuProps) {
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const close = () => setOpen(false);

  return (
    <>
      <Button
        ref={button}
        variant="ghost"
        size="icon-sm"
        aria-label="Open menu"
        aria-haspopup="dialog"
        aria-expanded={open}
        className={className}
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
      >
        <Menu className="size-5" aria-hidden="true" />
      </Button>
      {wanted ? (
        <Suspense fallback={null}>
          <MobileMenuSheet open={open} onOpenChange={setOpen} returnFocusTo={button}>
            {children(close)}
          </MobileMenuSheet>
        </Suspense>
      ) : null}
    </>
  );
}

/** A row in the mobile menu: a link or a button, full width and easy to tap. */
export const mobileMenuItemClasses = cn(
  'flex h-11 w-full items-center gap-3 rounded-lg px-3 text-base font-medium transition-colors',
  'hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
);

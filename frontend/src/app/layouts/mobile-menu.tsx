import * as DialogPrimitive from '@radix-ui/react-dialog';
import { Menu, X } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { overlayClasses } from '@/components/ui/dialog';
import { cn } from '@/lib/cn';

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
  const close = () => setOpen(false);

  return (
    <DialogPrimitive.Root open={open} onOpenChange={setOpen}>
      <DialogPrimitive.Trigger asChild>
        <Button variant="ghost" size="icon-sm" aria-label="Open menu" className={className}>
          <Menu className="size-5" aria-hidden="true" />
        </Button>
      </DialogPrimitive.Trigger>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className={overlayClasses} />
        <DialogPrimitive.Content
          aria-describedby={undefined}
          className={cn(
            'fixed inset-y-0 right-0 z-50 flex w-[min(20rem,88vw)] flex-col gap-2 overflow-y-auto border-l bg-background p-5 shadow-2xl outline-none',
            'data-[state=open]:animate-fade-in data-[state=closed]:animate-fade-out',
          )}
        >
          <div className="mb-2 flex items-center justify-between">
            <DialogPrimitive.Title className="text-lg font-semibold tracking-tight">Menu</DialogPrimitive.Title>
            <DialogPrimitive.Close asChild>
              <Button variant="ghost" size="icon-sm" aria-label="Close menu">
                <X className="size-5" aria-hidden="true" />
              </Button>
            </DialogPrimitive.Close>
          </div>
          {children(close)}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

/** A row in the mobile menu: a link or a button, full width and easy to tap. */
export const mobileMenuItemClasses = cn(
  'flex h-11 w-full items-center gap-3 rounded-lg px-3 text-base font-medium transition-colors',
  'hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
);

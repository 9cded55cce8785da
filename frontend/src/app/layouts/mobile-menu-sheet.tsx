import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ReactNode, RefObject } from 'react';
import { Button } from '@/components/ui/button';
import { overlayClasses } from '@/components/ui/dialog';
import { cn } from '@/lib/cn';

interface MobileMenuSheetProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The menu button, which gets the focus back when the sheet closes. */
  returnFocusTo: RefObject<HTMLButtonElement | null>;
  children: ReactNode;
}

/** The mobile menu's sheet from the right, a modal dialog (see MobileMenu). */
export function MobileMenuSheet({ open, onOpenChange, returnFocusTo, children }: MobileMenuSheetProps) {
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className={overlayClasses} />
        <DialogPrimitive.Content
          aria-describedby={undefined}
          // The button is drawn before this code loads, so it is no Radix trigger: focus goes back by hand.
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocusTo.current?.focus();
          }}
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
          {children}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

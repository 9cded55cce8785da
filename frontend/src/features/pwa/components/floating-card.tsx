import { X } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';

interface FloatingCardProps {
  /** Names the card's region for assistive technology. */
  label: string;
  icon: ReactNode;
  title: string;
  description: string;
  actions: ReactNode;
  onClose: () => void;
  closeLabel: string;
}

/** A small card over the page's bottom corner (above the phone navigation) that offers one thing. */
export function FloatingCard({ label, icon, title, description, actions, onClose, closeLabel }: FloatingCardProps) {
  return (
    <section
      aria-label={label}
      className="pointer-events-auto relative flex w-full gap-3 rounded-xl border bg-popover p-4 pr-11 text-popover-foreground shadow-lg animate-toast-in sm:w-[380px]"
    >
      <span
        aria-hidden="true"
        className="bg-brand-gradient grid size-10 shrink-0 place-items-center rounded-lg text-white [&_svg]:size-5"
      >
        {icon}
      </span>
      <div className="grid min-w-0 gap-1">
        <h2 className="text-sm font-semibold">{title}</h2>
        <p className="text-sm text-muted-foreground">{description}</p>
        <div className="mt-2 flex flex-wrap gap-2">{actions}</div>
      </div>
      <Button
        variant="ghost"
        size="icon-sm"
        className="absolute top-2 right-2 size-8"
        aria-label={closeLabel}
        onClick={onClose}
      >
        <X aria-hidden="true" />
      </Button>
    </section>
  );
}

/**
 * Where floating cards stack: above the phone's bottom navigation, and bottom left from 640 px,
 * clear of the toasts (top on phones, bottom right from 640 px).
 */
export function FloatingCardStack({ children }: { children: ReactNode }) {
  return (
    <div className="pointer-events-none fixed inset-x-0 bottom-[calc(4.75rem+env(safe-area-inset-bottom))] z-50 flex flex-col items-stretch gap-3 px-4 sm:items-start md:bottom-6 md:px-6">
      {children}
    </div>
  );
}

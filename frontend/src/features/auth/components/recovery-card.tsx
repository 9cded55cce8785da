import { ArrowLeft, type LucideIcon } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Button, type ButtonProps } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';

interface RecoveryCardProps {
  icon: LucideIcon;
  /** `success` and `problem` tint the icon; `form` is the brand's. */
  tone?: 'form' | 'success' | 'problem';
  title: string;
  description: ReactNode;
  children?: ReactNode;
}

const toneClasses = {
  form: 'bg-brand-gradient text-white shadow-lg shadow-fuchsia-500/25',
  success: 'bg-emerald-500/15 text-emerald-600 dark:text-emerald-400',
  problem: 'bg-destructive/10 text-destructive',
} as const;

/**
 * The card of the password recovery screens. Its heading takes the focus when it changes (the
 * form became a confirmation), so a screen reader reads the new state at once.
 */
export function RecoveryCard({ icon: Icon, tone = 'form', title, description, children }: RecoveryCardProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  const shownTitle = useRef(title);

  useEffect(() => {
    if (title === shownTitle.current) return;
    shownTitle.current = title;
    heading.current?.focus();
  }, [title]);

  return (
    <div className="mx-auto flex w-full max-w-md flex-1 flex-col justify-center px-4 py-10 sm:py-16">
      <Card>
        <CardHeader className="items-center pb-5 text-center">
          <span
            aria-hidden="true"
            className={cn('mb-2 grid size-14 place-items-center rounded-2xl', toneClasses[tone])}
          >
            <Icon className="size-7" />
          </span>
          <h1 ref={heading} tabIndex={-1} className="text-2xl font-semibold tracking-tight outline-none">
            {title}
          </h1>
          <CardDescription className="text-base text-balance">{description}</CardDescription>
        </CardHeader>
        {children ? <CardContent>{children}</CardContent> : null}
      </Card>
    </div>
  );
}

/** "Back to Login": every recovery screen's way out, to the auth screen. */
export function BackToLogin({ variant, className }: Pick<ButtonProps, 'variant' | 'className'>) {
  return (
    <Button asChild variant={variant} className={className}>
      <Link to={paths.auth}>
        <ArrowLeft aria-hidden="true" />
        Back to Login
      </Link>
    </Button>
  );
}

import { ArrowRight, Boxes, Images, Sparkles } from 'lucide-react';
import type { ComponentType, SVGProps } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';

/** SPEC §2's three action cards; `tour` names the onboarding steps each one anchors. */
const actions = [
  {
    to: paths.create,
    icon: Sparkles,
    title: 'Create Avatar',
    tour: 'character-customizer prompt-input',
    text: 'Generate new photos of yourself from a prompt or a look.',
  },
  {
    to: paths.gallery,
    icon: Images,
    title: 'Your Gallery',
    tour: 'gallery',
    text: 'Browse, download and share every avatar you have created.',
  },
  {
    to: paths.models,
    icon: Boxes,
    title: 'Custom Models',
    tour: 'custom-models',
    text: 'Upload your selfies and train a model of your likeness.',
  },
] as const;

export function ActionCards() {
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {actions.map((action) => (
        <li key={action.to} data-tour={action.tour}>
          <ActionCard {...action} />
        </li>
      ))}
    </ul>
  );
}

interface ActionCardProps {
  to: string;
  icon: ComponentType<SVGProps<SVGSVGElement>>;
  title: string;
  text: string;
}

function ActionCard({ to, icon: Icon, title, text }: ActionCardProps) {
  return (
    <Link
      to={to}
      className={cn(
        'group flex h-full items-center gap-4 rounded-2xl border bg-card p-5 text-card-foreground',
        'shadow-[0_1px_2px_hsl(var(--shadow-color)/0.06),0_8px_24px_-12px_hsl(var(--shadow-color)/0.18)]',
        'transition-[border-color,box-shadow,transform] duration-150 hover:-translate-y-0.5 hover:border-primary/40 hover:shadow-md',
        'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background',
      )}
    >
      <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-primary/10 text-primary">
        <Icon className="size-5" aria-hidden="true" />
      </span>
      <span className="flex min-w-0 flex-1 flex-col gap-0.5">
        <span className="font-semibold">{title}</span>
        <span className="text-sm text-muted-foreground">{text}</span>
      </span>
      <ArrowRight
        className="size-4 shrink-0 text-muted-foreground transition-transform group-hover:translate-x-0.5 group-hover:text-primary"
        aria-hidden="true"
      />
    </Link>
  );
}

import { GENERATION_COST, TRAINING_COST } from '@likeness/contracts';
import { InfinityIcon, Lightbulb, Sparkles, Wand2 } from 'lucide-react';

const rules = [
  {
    icon: Sparkles,
    title: `${GENERATION_COST} credits per avatar generation`,
    text: 'Each run creates up to 4 avatars from your prompt or the character customizer.',
  },
  {
    icon: Wand2,
    title: `${TRAINING_COST} credits to train a custom model`,
    text: 'Train your personal model once, then reuse it for every generation.',
  },
  {
    icon: InfinityIcon,
    title: 'Credits never expire',
    text: 'Unused credits roll over, so buy once and create whenever you like.',
  },
] as const;

/** The credits page's explainer: what credits pay for. */
export function HowCreditsWork() {
  return (
    <section aria-labelledby="how-credits-work" className="rounded-2xl border bg-muted/30 p-6 sm:p-8">
      <h2 id="how-credits-work" className="text-xl font-semibold tracking-tight">
        How Credits Work
      </h2>
      <ul className="mt-6 grid gap-6 md:grid-cols-3">
        {rules.map(({ icon: Icon, title, text }) => (
          <li key={title} className="flex gap-4">
            <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-primary/10 text-primary">
              <Icon className="size-5" aria-hidden="true" />
            </span>
            <div>
              <h3 className="font-medium">{title}</h3>
              <p className="mt-1 text-sm leading-relaxed text-muted-foreground">{text}</p>
            </div>
          </li>
        ))}
      </ul>
      <p className="mt-6 flex items-start gap-3 rounded-xl border border-amber-500/30 bg-amber-500/10 p-4 text-sm leading-relaxed">
        <Lightbulb className="mt-0.5 size-4 shrink-0 text-amber-600 dark:text-amber-400" aria-hidden="true" />
        <span>
          <strong className="font-semibold">Tip:</strong> most users train one model once and then generate many avatars
          with it, so after your first training nearly all of your credits go to new photos.
        </span>
      </p>
    </section>
  );
}

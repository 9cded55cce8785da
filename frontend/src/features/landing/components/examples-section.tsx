import { GENERATION_COST } from '@likeness/contracts';
import { Check, Copy } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Illustration } from '@/components/ui/illustration';
import { useCopyText } from '@/hooks/use-copy-text';
import { examples, type Example } from '../data/examples';
import { SectionHeading, sectionClasses } from './section-heading';

/** SPEC §2: the toast after copying an example's prompt. */
const COPIED_TOAST = {
  title: 'Prompt copied!',
  description: 'Now you can paste this prompt when creating your own avatar',
} as const;

export function ExamplesSection() {
  return (
    <section id="examples" aria-labelledby="examples-title" className={sectionClasses}>
      <SectionHeading id="examples-title" eyebrow="Examples" title="One model, endless looks">
        Every style below is a prompt. Copy one, put your trigger word in front of it and make it yours.
      </SectionHeading>
      <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {examples.map((example) => (
          <li key={example.id}>
            <ExampleCard example={example} />
          </li>
        ))}
      </ul>
      <p className="mt-8 text-center text-sm text-muted-foreground">
        Each generation costs {GENERATION_COST} credits and makes up to four photos.
      </p>
    </section>
  );
}

function ExampleCard({ example }: { example: Example }) {
  const { copied, copy } = useCopyText();

  return (
    <article className="flex h-full flex-col overflow-hidden rounded-2xl border bg-card text-card-foreground shadow-[0_1px_2px_hsl(var(--shadow-color)/0.06),0_8px_24px_-12px_hsl(var(--shadow-color)/0.18)]">
      <Illustration
        source={example.image}
        alt={`Example: ${example.style}`}
        sizes="(min-width: 1024px) 360px, (min-width: 640px) 45vw, 100vw"
        className="aspect-[4/5]"
      />
      <div className="flex flex-1 flex-col gap-3 p-5">
        <div className="flex items-center justify-between gap-3">
          <h3 className="font-semibold tracking-tight">{example.style}</h3>
          <Button
            size="icon-sm"
            variant="outline"
            aria-label={copied ? `${example.style} prompt copied` : `Copy the ${example.style} prompt`}
            onClick={() => void copy(example.prompt, COPIED_TOAST)}
          >
            {copied ? <Check className="text-emerald-600" aria-hidden="true" /> : <Copy aria-hidden="true" />}
          </Button>
        </div>
        <p className="text-sm leading-relaxed text-muted-foreground">{example.prompt}</p>
      </div>
    </article>
  );
}

import { Download, Palette, Upload, Wand2 } from 'lucide-react';
import { SectionHeading, sectionClasses } from './section-heading';

/** SPEC §2: the four steps. */
const steps = [
  {
    icon: Upload,
    title: 'Upload your selfies',
    text: 'Add 12-20 selfies with varied angles, expressions and lighting. The more variety, the better your likeness.',
  },
  {
    icon: Wand2,
    title: 'Train your model',
    text: 'Your personal AI model learns what you look like in about 15-20 minutes, with its own trigger word.',
  },
  {
    icon: Palette,
    title: 'Customize your avatar',
    text: 'Pick from 70+ activities, 60+ art styles and locations around the globe, or just describe the shot in a few words.',
  },
  {
    icon: Download,
    title: 'Generate & download',
    text: 'Create up to four photos a run and download them in high resolution, ready for any profile or print.',
  },
] as const;

export function HowItWorks() {
  return (
    <section id="how-it-works" aria-labelledby="how-it-works-title" className={sectionClasses}>
      <SectionHeading
        id="how-it-works-title"
        eyebrow="How It Works"
        title="From selfies to studio photos in four steps"
      >
        No photographer, no studio: your phone&apos;s camera and a few minutes are enough.
      </SectionHeading>
      <ol className="mt-12 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
        {steps.map(({ icon: Icon, title, text }, index) => (
          <li key={title} className="relative flex flex-col gap-4 rounded-2xl border bg-card p-6 text-card-foreground">
            <div className="flex items-center justify-between">
              <span className="grid size-11 place-items-center rounded-xl bg-primary/10 text-primary">
                <Icon className="size-5" aria-hidden="true" />
              </span>
              <span className="text-sm font-semibold text-muted-foreground" aria-hidden="true">
                0{index + 1}
              </span>
            </div>
            <h3 className="text-lg font-semibold tracking-tight">{title}</h3>
            <p className="text-sm leading-relaxed text-muted-foreground">{text}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}

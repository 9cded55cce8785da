import { ArrowRight, Cpu, HeartHandshake, Lock, Scale, Sparkles, Target } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';

const technology = [
  {
    title: 'A model of you, not of everyone',
    text: 'Your selfies train a small personal model (a LoRA on top of a state-of-the-art image model) with a trigger word that brings your likeness into any prompt.',
  },
  {
    title: 'Checked before it costs you',
    text: 'Selfies are checked by their content and re-encoded before they are stored, and credits are only held while work runs: a failed training or generation costs nothing.',
  },
  {
    title: 'Built to scale quietly',
    text: 'Generations run on a durable work queue across many workers, so a busy evening means a short wait, never a lost job.',
  },
] as const;

const values = [
  {
    icon: Lock,
    title: 'Your face is yours',
    text: 'Your selfies are used only to train your own model. Delete anything, any time; deleting your account erases it all.',
  },
  {
    icon: Scale,
    title: 'Fair, simple pricing',
    text: 'Prepaid credits that never expire, no subscription, and you are only charged for work that succeeds.',
  },
  {
    icon: HeartHandshake,
    title: 'Creativity for everyone',
    text: 'No studio, no photographer, no design skills: a phone camera and an idea are enough.',
  },
] as const;

/** /about (SPEC §2): mission, technology and values, with two calls to action. */
export function AboutPage() {
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-16 px-4 py-12 sm:px-6 sm:py-16 lg:px-8">
      <header className="mx-auto flex max-w-3xl flex-col items-center gap-5 text-center">
        <h1 className="text-4xl font-semibold tracking-tight text-balance sm:text-5xl">About Likeness</h1>
        <p className="text-lg text-muted-foreground text-pretty">
          Likeness turns a handful of selfies into a personal AI model, and that model into portraits, characters and
          scenes of you.
        </p>
      </header>

      <section
        aria-labelledby="mission"
        className="grid gap-6 rounded-3xl border bg-card p-6 sm:p-10 md:grid-cols-[auto_1fr]"
      >
        <span className="bg-brand-gradient grid size-12 place-items-center rounded-2xl text-white">
          <Target className="size-6" aria-hidden="true" />
        </span>
        <div className="flex flex-col gap-3">
          <h2 id="mission" className="text-2xl font-semibold tracking-tight">
            Our mission
          </h2>
          <p className="leading-relaxed text-muted-foreground">
            Great photos of yourself should not need a studio booking. Content creators, designers, marketers and anyone
            who wants a new profile picture deserve images that look like them, in any setting they can imagine, at a
            price that fits a single idea rather than a monthly plan. We build Likeness so that a few minutes with a
            phone camera are enough.
          </p>
        </div>
      </section>

      <section aria-labelledby="technology" className="flex flex-col gap-6">
        <div className="flex items-center gap-3">
          <Cpu className="size-6 text-primary" aria-hidden="true" />
          <h2 id="technology" className="text-2xl font-semibold tracking-tight">
            Our technology
          </h2>
        </div>
        <ul className="grid gap-5 md:grid-cols-3">
          {technology.map(({ title, text }) => (
            <li key={title} className="rounded-2xl border bg-card p-6">
              <h3 className="font-semibold tracking-tight">{title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="values" className="flex flex-col gap-6">
        <div className="flex items-center gap-3">
          <Sparkles className="size-6 text-primary" aria-hidden="true" />
          <h2 id="values" className="text-2xl font-semibold tracking-tight">
            Our values
          </h2>
        </div>
        <ul className="grid gap-5 md:grid-cols-3">
          {values.map(({ icon: Icon, title, text }) => (
            <li key={title} className="flex flex-col gap-3 rounded-2xl border bg-card p-6">
              <span className="grid size-10 place-items-center rounded-xl bg-primary/10 text-primary">
                <Icon className="size-5" aria-hidden="true" />
              </span>
              <h3 className="font-semibold tracking-tight">{title}</h3>
              <p className="text-sm leading-relaxed text-muted-foreground">{text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section
        aria-labelledby="about-cta"
        className="flex flex-col items-center gap-5 rounded-3xl border bg-muted/40 px-6 py-12 text-center"
      >
        <h2 id="about-cta" className="text-2xl font-semibold tracking-tight text-balance sm:text-3xl">
          See yourself in a new light
        </h2>
        <div className="flex w-full flex-col justify-center gap-3 sm:w-auto sm:flex-row">
          <Button asChild variant="brand" size="lg">
            <Link to={paths.credits}>
              Get Started Today
              <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
          <Button asChild variant="outline" size="lg">
            <Link to={paths.sceneExplorer}>Explore Examples</Link>
          </Button>
        </div>
      </section>
    </div>
  );
}

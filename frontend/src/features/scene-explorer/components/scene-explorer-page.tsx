import { ArrowRight, Compass } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { storeSelectedPrompt } from '@/lib/selected-prompt';
import { AvatarSceneExplorer } from './avatar-scene-explorer';

const steps = [
  'Pick a category and browse its scenes with the arrows.',
  'Copy a prompt, or press "Use This Prompt" to take it with you.',
  'On the create page your trigger word is put in front of it: generate and you are in the scene.',
] as const;

/** /scene-explorer (SPEC §2): browsable prompts; a chosen one waits in storage for the create page. */
export function SceneExplorerPage({ signedIn }: { signedIn: boolean }) {
  const navigate = useNavigate();

  function choosePrompt(prompt: string) {
    storeSelectedPrompt(prompt);
    void navigate(signedIn ? paths.dashboard : paths.auth);
  }

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-10 px-4 py-10 sm:px-6 sm:py-14 lg:px-8">
      <header className="mx-auto flex max-w-2xl flex-col items-center gap-4 text-center">
        <span className="inline-flex items-center gap-2 rounded-full border bg-background/70 px-3 py-1 text-sm font-medium text-muted-foreground">
          <Compass className="size-4 text-primary" aria-hidden="true" />
          25 ready-made scenes
        </span>
        <h1 className="text-3xl font-semibold tracking-tight text-balance sm:text-5xl">
          Transformation Scene Explorer
        </h1>
        <p className="text-lg text-muted-foreground text-pretty">
          Find a scene for your next avatar: from boardrooms to dragon riders. Every scene comes with a prompt you can
          use as it is or make your own.
        </p>
      </header>

      <AvatarSceneExplorer onUsePrompt={choosePrompt} />

      <section aria-labelledby="scene-steps" className="grid gap-6 rounded-3xl border bg-card/60 p-6 sm:p-8">
        <h2 id="scene-steps" className="text-xl font-semibold tracking-tight">
          From scene to avatar
        </h2>
        <ol className="grid gap-4 sm:grid-cols-3">
          {steps.map((text, index) => (
            <li key={text} className="flex gap-3">
              <span className="bg-brand-gradient grid size-8 shrink-0 place-items-center rounded-full text-sm font-semibold text-white">
                {index + 1}
              </span>
              <p className="text-sm leading-relaxed text-muted-foreground">{text}</p>
            </li>
          ))}
        </ol>
        <Button asChild variant="brand" size="lg" className="justify-self-center">
          <Link to={signedIn ? paths.dashboard : paths.auth}>
            {signedIn ? 'Go to Dashboard' : 'Get Started Now'}
            <ArrowRight aria-hidden="true" />
          </Link>
        </Button>
      </section>
    </div>
  );
}

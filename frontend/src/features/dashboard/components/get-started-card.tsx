import { Coins, Rocket, Sparkles, Wand2 } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';

/** SPEC §2: the three steps a user with no credits goes through. */
const steps = [
  { icon: Coins, title: 'Buy Credits', text: 'Start with $5 for 50 credits.' },
  { icon: Wand2, title: 'Train Model', text: '30 credits, upload 12-20 photos.' },
  { icon: Sparkles, title: 'Generate Avatars', text: '5 credits each.' },
] as const;

/** Shown instead of the credits overview while the user has no credits. */
export function GetStartedCard() {
  return (
    <Card className="relative overflow-hidden" data-tour="credits">
      <div aria-hidden="true" className="bg-brand-gradient absolute inset-x-0 top-0 h-1" />
      <CardHeader className="pb-4">
        <CardTitle className="flex items-center gap-2 text-xl">
          <Rocket className="size-5 text-primary" aria-hidden="true" />
          Get Started
        </CardTitle>
        <CardDescription>Three steps from selfie to studio-quality avatar.</CardDescription>
      </CardHeader>
      <CardContent>
        <ol className="grid gap-4 sm:grid-cols-3">
          {steps.map(({ icon: Icon, title, text }, index) => (
            <li key={title} className="rounded-xl border bg-muted/40 p-4">
              <div className="flex items-center gap-3">
                <span className="grid size-9 place-items-center rounded-lg bg-primary/10 text-primary">
                  <Icon className="size-[18px]" aria-hidden="true" />
                </span>
                <span className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">
                  Step {index + 1}
                </span>
              </div>
              <h3 className="mt-3 font-medium">{title}</h3>
              <p className="mt-1 text-sm leading-relaxed text-muted-foreground">{text}</p>
            </li>
          ))}
        </ol>
        <Button asChild variant="brand" size="lg" className="mt-6 w-full sm:w-auto">
          <Link to={paths.credits}>
            <Coins aria-hidden="true" />
            Get Credits to Start
          </Link>
        </Button>
      </CardContent>
    </Card>
  );
}

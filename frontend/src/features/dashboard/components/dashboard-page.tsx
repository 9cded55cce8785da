import { Camera, Coins, Plus, Sparkles, Wand2 } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';

interface DashboardPageProps {
  username: string;
  credits: number;
  /** Where "Buy More Credits" leads (the app owns the routes). */
  buyCreditsHref: string;
}

const steps = [
  { icon: Camera, title: 'Upload your selfies', text: '12-20 photos with varied angles, expressions and lighting.' },
  { icon: Wand2, title: 'Train your model', text: 'A personal AI model learns your likeness in about 15-20 minutes.' },
  {
    icon: Sparkles,
    title: 'Generate avatars',
    text: 'Describe a look or pick a style; each generation costs 5 credits.',
  },
] as const;

/** /dashboard (labelled Home): the signed-in overview. */
export function DashboardPage({ username, credits, buyCreditsHref }: DashboardPageProps) {
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 md:py-12 lg:px-8">
      <header className="flex flex-col gap-2">
        <h1 className="text-3xl font-semibold tracking-tight text-balance sm:text-4xl">
          Welcome, <span className="text-brand-gradient">{username}</span>!
        </h1>
        <p className="text-base text-muted-foreground sm:text-lg">Create stunning AI avatars with your selfies</p>
      </header>

      <div className="mt-8 grid items-start gap-6 lg:grid-cols-3">
        <Card className="relative overflow-hidden">
          <div aria-hidden="true" className="bg-brand-gradient absolute inset-x-0 top-0 h-1" />
          <CardHeader className="pb-2">
            <CardDescription className="flex items-center gap-2 font-medium">
              <Coins className="size-4 text-primary" aria-hidden="true" />
              Available credits
            </CardDescription>
            <CardTitle className="text-4xl font-semibold tabular-nums">{credits}</CardTitle>
          </CardHeader>
          <CardContent>
            <p className="text-sm text-muted-foreground">
              Credits never expire. Generating avatars costs 5 credits; training a model costs 30.
            </p>
            <Button asChild variant="brand" className="mt-5 w-full">
              <Link to={buyCreditsHref}>
                <Plus aria-hidden="true" />
                Buy More Credits
              </Link>
            </Button>
          </CardContent>
        </Card>

        <Card className="lg:col-span-2">
          <CardHeader className="pb-4">
            <CardTitle>How it works</CardTitle>
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
          </CardContent>
        </Card>
      </div>
    </div>
  );
}

import type { UseQueryResult } from '@tanstack/react-query';
import { Boxes, Coins, Images, Plus, Sparkles, Wallet } from 'lucide-react';
import type { ComponentType, SVGProps } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';

interface CreditsOverviewProps {
  credits: number;
  avatarCount: UseQueryResult<number>;
  trainedModelCount: UseQueryResult<number>;
  generationCount: UseQueryResult<number>;
}

/** SPEC §2: the credits card and the quick stats, for a user who has credits. */
export function CreditsOverview({ credits, avatarCount, trainedModelCount, generationCount }: CreditsOverviewProps) {
  return (
    <div className="grid items-stretch gap-6 lg:grid-cols-3">
      <Card className="relative overflow-hidden" data-tour="credits">
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
            <Link to={paths.credits}>
              <Plus aria-hidden="true" />
              Buy More Credits
            </Link>
          </Button>
        </CardContent>
      </Card>

      <Card className="flex flex-col lg:col-span-2">
        <CardHeader className="pb-4">
          <CardTitle>Quick Stats</CardTitle>
        </CardHeader>
        <CardContent className="flex-1">
          <dl className="grid h-full grid-cols-2 gap-3 sm:grid-cols-4 sm:gap-4">
            <Stat icon={Images} label="Avatars Created" value={avatarCount} />
            <Stat icon={Boxes} label="Trained Models" value={trainedModelCount} />
            <Stat icon={Sparkles} label="Generations" value={generationCount} />
            <Stat icon={Wallet} label="Credits Left" value={credits} />
          </dl>
        </CardContent>
      </Card>
    </div>
  );
}

interface StatProps {
  icon: ComponentType<SVGProps<SVGSVGElement>>;
  label: string;
  value: UseQueryResult<number> | number;
}

function Stat({ icon: Icon, label, value }: StatProps) {
  return (
    <div className="flex min-w-0 flex-col justify-between gap-2 rounded-xl border bg-muted/40 p-3 sm:p-4">
      <dt className="flex items-center gap-2 text-xs font-medium text-muted-foreground sm:text-sm">
        <Icon className="hidden size-4 shrink-0 text-primary sm:block" aria-hidden="true" />
        {label}
      </dt>
      <dd className="text-2xl font-semibold tabular-nums sm:text-3xl">
        <StatValue value={value} />
      </dd>
    </div>
  );
}

function StatValue({ value }: { value: UseQueryResult<number> | number }) {
  if (typeof value === 'number') return value;
  if (value.isSuccess) return value.data;
  if (value.isPending) {
    return (
      <span className="inline-block h-7 w-10 animate-pulse rounded bg-muted align-middle">
        <span className="sr-only">Loading</span>
      </span>
    );
  }
  return (
    <span title="Couldn't load this number" className="text-muted-foreground">
      –<span className="sr-only">Unavailable</span>
    </span>
  );
}

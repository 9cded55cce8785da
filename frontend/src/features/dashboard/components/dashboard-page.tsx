import type { Avatar } from '@likeness/contracts';
import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import { CircleHelp } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { profileUrl } from '@/config/paths';
import { avatarsQueryOptions, useAvatars } from '@/lib/avatars/get-avatars';
import { customModelsQueryOptions, type ListedModel } from '@/lib/custom-models/get-custom-models';
import { isCompletedStatus } from '@/lib/custom-models/model-status';
import { countCompletedJobs, generationJobsQueryOptions } from '@/lib/generation-jobs/get-generation-jobs';
import { uploadedImagesQueryOptions } from '@/lib/uploaded-images/get-uploaded-images';
import { firstRunSteps } from '../utils/first-run-steps';
import { rememberedSummary, rememberSummary } from '../utils/summary-memory';
import { useOnboardingTour } from '../hooks/use-onboarding-tour';
import { ActionCards } from './action-cards';
import { CreditsOverview } from './credits-overview';
import { GetStartedGuide } from './get-started-guide';
import { RecentAvatars } from './recent-avatars';

interface DashboardPageProps {
  userId: number;
  username: string;
  credits: number;
}

const countTrained = (models: ListedModel[]) => models.filter((model) => isCompletedStatus(model.status)).length;

/**
 * /dashboard (labelled Home): the signed-in overview (SPEC §2). Until the first avatar exists it
 * guides the account through buy → upload → train → create instead of showing a row of zeros.
 */
export function DashboardPage({ userId, username, credits }: DashboardPageProps) {
  const avatars = useAvatars();
  useOnboardingTour();

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 md:py-12 lg:px-8">
      <header className="flex flex-col gap-2">
        <h1 className="text-3xl font-semibold tracking-tight text-balance sm:text-4xl">
          Welcome, <span className="text-brand-gradient">{username}</span>!
        </h1>
        <p className="text-base text-muted-foreground sm:text-lg">Create stunning AI avatars with your selfies</p>
      </header>

      <div className="mt-8 flex flex-col gap-8 md:gap-10">
        <Summary userId={userId} avatars={avatars} credits={credits} />
        <ActionCards />
        <RecentAvatars avatars={avatars} />
        <NeedHelp />
      </div>
    </div>
  );
}

/**
 * The get-started guide until the first avatar exists, then the balance and quick stats. Drawn
 * from the first paint, so nothing below it moves when the lists arrive: until the avatar list
 * says which, it shows the one this browser last showed the account (the guide for a new one),
 * its numbers still loading.
 */
function Summary({ userId, avatars, credits }: { userId: number; avatars: UseQueryResult<Avatar[]>; credits: number }) {
  const [remembered] = useState(() => rememberedSummary(userId));
  // A list that failed shows the overview, its avatar count marked unavailable.
  const known = avatars.isSuccess
    ? avatars.data.length === 0
      ? 'guide'
      : 'overview'
    : avatars.isError
      ? 'overview'
      : undefined;
  useEffect(() => {
    if (known) rememberSummary(userId, known);
  }, [userId, known]);
  return (known ?? remembered) === 'guide' ? (
    <FirstRun credits={credits} avatarsLoaded={avatars.isSuccess} />
  ) : (
    <Overview credits={credits} />
  );
}

/** The balance and quick stats of an account that has made avatars. */
function Overview({ credits }: { credits: number }) {
  // The page's own avatar query fetches the list; read its total without asking again on mount
  // (a failed list would otherwise refetch, unmount this while pending, and loop).
  const avatarCount = useQuery({
    ...avatarsQueryOptions(),
    select: (page) => page.total,
    refetchOnMount: false,
    retryOnMount: false,
  });
  // A count on the overview need not follow a training live: fetched on mount, no polling here.
  const trainedModelCount = useQuery({ ...customModelsQueryOptions(), refetchInterval: false, select: countTrained });
  const generationCount = useQuery({ ...generationJobsQueryOptions(), select: countCompletedJobs });
  return (
    <CreditsOverview
      credits={credits}
      avatarCount={avatarCount}
      trainedModelCount={trainedModelCount}
      generationCount={generationCount}
    />
  );
}

/** The get-started guide, its steps read from what the account holds (loading until all of it is known). */
function FirstRun({ credits, avatarsLoaded }: { credits: number; avatarsLoaded: boolean }) {
  const models = useQuery(customModelsQueryOptions());
  const selfieCount = useQuery({ ...uploadedImagesQueryOptions(), select: (images) => images.length });
  // A list that failed leaves the guide out rather than guessing the account's steps.
  if (models.isError || selfieCount.isError) return null;
  const loaded = avatarsLoaded && models.isSuccess && selfieCount.isSuccess;
  return (
    <GetStartedGuide
      loading={!loaded}
      steps={firstRunSteps({
        credits,
        selfieCount: selfieCount.data ?? 0,
        models: models.data ?? [],
        avatarCount: 0,
      })}
    />
  );
}

/** SPEC §2: "Need Help?" opens the profile's Help & Support tab. */
function NeedHelp() {
  return (
    <aside
      aria-label="Help"
      className="flex flex-col items-start gap-4 rounded-2xl border bg-muted/30 p-5 sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="flex items-center gap-4">
        <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-primary/10 text-primary">
          <CircleHelp className="size-5" aria-hidden="true" />
        </span>
        <p className="text-sm text-muted-foreground">
          Questions about credits, training or your data? Answers and a way to reach us are a click away.
        </p>
      </div>
      <Button asChild variant="outline">
        <Link to={profileUrl('help')}>Need Help?</Link>
      </Button>
    </aside>
  );
}

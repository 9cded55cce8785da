import { useQuery } from '@tanstack/react-query';
import { avatarsQueryOptions, useAvatars } from '@/lib/avatars/get-avatars';
import { customModelsQueryOptions, type ListedModel } from '@/lib/custom-models/get-custom-models';
import { isCompletedStatus } from '@/lib/custom-models/model-status';
import { countCompletedJobs, generationJobsQueryOptions } from '@/lib/generation-jobs/get-generation-jobs';
import { ActionCards } from './action-cards';
import { CreditsOverview } from './credits-overview';
import { GetStartedCard } from './get-started-card';
import { RecentAvatars } from './recent-avatars';

interface DashboardPageProps {
  username: string;
  credits: number;
}

const countTrained = (models: ListedModel[]) => models.filter((model) => isCompletedStatus(model.status)).length;

/** /dashboard (labelled Home): the signed-in overview (SPEC §2). */
export function DashboardPage({ username, credits }: DashboardPageProps) {
  const avatars = useAvatars();

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 md:py-12 lg:px-8">
      <header className="flex flex-col gap-2">
        <h1 className="text-3xl font-semibold tracking-tight text-balance sm:text-4xl">
          Welcome, <span className="text-brand-gradient">{username}</span>!
        </h1>
        <p className="text-base text-muted-foreground sm:text-lg">Create stunning AI avatars with your selfies</p>
      </header>

      <div className="mt-8 flex flex-col gap-8 md:gap-10">
        {credits === 0 ? <GetStartedCard /> : <Overview credits={credits} />}
        <ActionCards />
        <RecentAvatars avatars={avatars} />
        {/* SPEC §2's "Need Help?" button (→ /profile?tab=help) joins with the profile page. */}
      </div>
    </div>
  );
}

/** The credits card and quick stats; only mounted with credits, so a zero-credit visit skips the model list. */
function Overview({ credits }: { credits: number }) {
  const avatarCount = useQuery({ ...avatarsQueryOptions(), select: (avatars) => avatars.length });
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

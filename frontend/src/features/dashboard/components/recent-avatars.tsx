import type { Avatar } from '@likeness/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import { ArrowRight, Images, Sparkles } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { LoadError } from '@/components/ui/load-error';
import { EmptyState } from '@/components/ui/empty-state';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { RecentAvatarTile } from './recent-avatar-tile';

/** SPEC §2: the dashboard shows this many of the newest avatars. */
export const RECENT_AVATAR_COUNT = 6;

/** The user's newest avatars, `avatars` already sorted newest first (undated last). */
export function RecentAvatars({ avatars }: { avatars: UseQueryResult<Avatar[]> }) {
  const hasMore = (avatars.data?.length ?? 0) > RECENT_AVATAR_COUNT;

  return (
    <section aria-labelledby="recent-avatars-heading" className="flex flex-col gap-4">
      <div className="flex items-center justify-between gap-4">
        <h2 id="recent-avatars-heading" className="text-xl font-semibold tracking-tight">
          Recent Avatars
        </h2>
        {hasMore && (
          <Button asChild variant="ghost" size="sm" className="-mr-3">
            <Link to={paths.gallery}>
              View All
              <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
        )}
      </div>

      {avatars.isPending ? (
        <div
          role="status"
          // About as tall as what replaces it (the empty state, or a row of tiles): nothing below jumps.
          className="flex min-h-80 items-center justify-center gap-3 rounded-2xl border border-dashed px-6 py-14 text-sm text-muted-foreground"
        >
          <Spinner className="size-5 text-primary" />
          Loading your avatars...
        </div>
      ) : avatars.isError ? (
        <LoadError what="your avatars" onRetry={() => void avatars.refetch()} />
      ) : avatars.data.length === 0 ? (
        <EmptyRecentAvatars />
      ) : (
        <ul className="grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3">
          {avatars.data.slice(0, RECENT_AVATAR_COUNT).map((avatar) => (
            <li key={avatar.id} className="min-w-0">
              <RecentAvatarTile avatar={avatar} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function EmptyRecentAvatars() {
  return (
    <EmptyState
      icon={Images}
      headingLevel="h3"
      title="No avatars created yet"
      description="Train a custom model on your selfies, then generate avatars of yourself from a prompt."
      action={
        <Button asChild variant="brand">
          <Link to={paths.create}>
            <Sparkles aria-hidden="true" />
            Create Your First Avatar
          </Link>
        </Button>
      }
    />
  );
}

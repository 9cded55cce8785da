import type { Avatar } from '@likeness/contracts';
import { Images, Wand2 } from 'lucide-react';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { LoadError } from '@/components/ui/load-error';
import { EmptyState } from '@/components/ui/empty-state';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { paths } from '@/config/paths';
import { useAvatars } from '@/lib/avatars/get-avatars';
import { AvatarDetailsDialog } from './avatar-details-dialog';
import { AvatarGrid, avatarGridClasses } from './avatar-grid';

/** SPEC §9: the Recent tab shows this many of the newest avatars. */
const RECENT_TAB_COUNT = 8;

/** /gallery: every avatar the user made, the newest first, each opening its details. */
export function GalleryPage() {
  const avatars = useAvatars();
  const [openId, setOpenId] = useState<number | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const openedFrom = useRef<Element | null>(null);
  const openAvatar = avatars.data?.find((avatar) => avatar.id === openId) ?? null;

  function open(avatar: Avatar) {
    openedFrom.current = document.activeElement;
    setOpenId(avatar.id);
  }

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 md:py-12 lg:px-8">
      <header className="flex flex-col gap-2">
        <h1
          ref={headingRef}
          tabIndex={-1}
          className="text-3xl font-semibold tracking-tight text-balance outline-none sm:text-4xl"
        >
          Your Avatar Gallery
        </h1>
        <p className="text-base text-muted-foreground sm:text-lg">
          Every avatar you've created, ready to download, share or reuse its prompt.
        </p>
      </header>

      <section aria-label="Avatars" className="mt-8">
        {avatars.isPending ? (
          <GallerySkeleton />
        ) : avatars.isError ? (
          <LoadError what="your avatars" onRetry={() => void avatars.refetch()} />
        ) : avatars.data.length === 0 ? (
          <EmptyGallery />
        ) : (
          <GalleryTabs avatars={avatars.data} onOpen={open} />
        )}
      </section>

      <AvatarDetailsDialog
        avatar={openAvatar}
        onClose={() => setOpenId(null)}
        onCloseAutoFocus={(event) => {
          // Back to the card that opened the details (the dialog has no trigger of its own to return to);
          // when its avatar was deleted the card is gone, so the page heading takes focus instead.
          event.preventDefault();
          const card = openedFrom.current;
          if (card instanceof HTMLElement && card.isConnected) card.focus();
          else headingRef.current?.focus();
        }}
      />
    </div>
  );
}

function GalleryTabs({ avatars, onOpen }: { avatars: Avatar[]; onOpen: (avatar: Avatar) => void }) {
  const recent = avatars.slice(0, RECENT_TAB_COUNT);
  return (
    <Tabs defaultValue="recent" className="flex flex-col gap-6">
      <TabsList className="w-full self-start sm:w-auto">
        <TabsTrigger value="recent" className="sm:px-5">
          Recent ({recent.length})
        </TabsTrigger>
        <TabsTrigger value="all" className="sm:px-5">
          All ({avatars.length})
        </TabsTrigger>
      </TabsList>
      <TabsContent value="recent">
        <AvatarGrid avatars={recent} onOpen={onOpen} />
      </TabsContent>
      <TabsContent value="all">
        <AvatarGrid avatars={avatars} onOpen={onOpen} />
      </TabsContent>
    </Tabs>
  );
}

function EmptyGallery() {
  return (
    <EmptyState
      icon={Images}
      title="No avatars created yet"
      description="Upload your selfies and train a custom model, then generate avatars from a prompt. Everything you create shows up here."
      action={
        <Button asChild variant="brand">
          <Link to={paths.models}>
            <Wand2 aria-hidden="true" />
            Go to Custom Models
          </Link>
        </Button>
      }
    />
  );
}

function GallerySkeleton() {
  return (
    <div role="status" aria-label="Loading your avatars..." className="flex flex-col gap-6">
      <div className="h-11 w-full animate-pulse rounded-xl bg-muted sm:w-56" />
      <div className={avatarGridClasses}>
        {Array.from({ length: RECENT_TAB_COUNT }, (_, index) => (
          <div key={index} className="overflow-hidden rounded-2xl border bg-card">
            <div className="aspect-square animate-pulse bg-muted" />
            <div className="flex flex-col gap-2 p-3 sm:p-4">
              <div className="h-3.5 w-4/5 animate-pulse rounded bg-muted" />
              <div className="h-3 w-1/3 animate-pulse rounded bg-muted" />
            </div>
          </div>
        ))}
      </div>
    </div>
  );
}

import type { Avatar, AvatarsPage } from '@likeness/contracts';
import { type InfiniteData, type UseInfiniteQueryResult, useInfiniteQuery } from '@tanstack/react-query';
import { CheckSquare, Images, Star, Wand2 } from 'lucide-react';
import { useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError } from '@/components/ui/load-error';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { paths } from '@/config/paths';
import { avatarPagesQueryOptions } from '@/lib/avatars/get-avatars';
import { AvatarDetailsDialog } from './avatar-details-dialog';
import { AvatarGrid, type GridSelection, avatarGridClasses } from './avatar-grid';
import { DownloadAllButton } from './download-all-button';
import { LoadMore } from './load-more';
import { SelectionBar } from './selection-bar';

/** SPEC §9: the Recent tab shows this many of the newest avatars. */
const RECENT_TAB_COUNT = 8;

type GalleryTab = 'recent' | 'all' | 'favourites';
type AvatarPages = UseInfiniteQueryResult<InfiniteData<AvatarsPage>>;

const loadedOf = (data: InfiniteData<AvatarsPage> | undefined) => data?.pages.flatMap((page) => page.items) ?? [];

/**
 * /gallery: every avatar the user made, newest first, paged from the server as the list
 * scrolls; the starred ones under Favourites; a select mode to download or delete many at once.
 */
export function GalleryPage() {
  const all = useInfiniteQuery(avatarPagesQueryOptions());
  const favourites = useInfiniteQuery(avatarPagesQueryOptions({ favourites: true }));
  const [tab, setTab] = useState<GalleryTab>('recent');
  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [openId, setOpenId] = useState<number | null>(null);
  const [revealedId, setRevealedId] = useState<number | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const openedFrom = useRef<Element | null>(null);

  const allLoaded = useMemo(() => loadedOf(all.data), [all.data]);
  const favouritesLoaded = useMemo(() => loadedOf(favourites.data), [favourites.data]);
  const shown = { recent: allLoaded.slice(0, RECENT_TAB_COUNT), all: allLoaded, favourites: favouritesLoaded }[tab];
  const openAvatar = [...allLoaded, ...favouritesLoaded].find((avatar) => avatar.id === openId) ?? null;

  function open(avatar: Avatar) {
    openedFrom.current = document.activeElement;
    setOpenId(avatar.id);
  }

  function toggle(avatar: Avatar) {
    setSelected((current) => {
      const next = new Set(current);
      if (!next.delete(avatar.id)) next.add(avatar.id);
      return next;
    });
  }

  function endSelecting() {
    setSelecting(false);
    setSelected(new Set());
  }

  const selection: GridSelection | undefined = selecting
    ? { isSelected: (avatar) => selected.has(avatar.id), onToggle: toggle }
    : undefined;
  const gridProps = { onOpen: open, revealedId, onReveal: (avatar: Avatar) => setRevealedId(avatar.id), selection };
  const total = all.data?.pages[0]?.total ?? 0;

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
        {all.isPending ? (
          <GallerySkeleton />
        ) : all.isError ? (
          <LoadError what="your avatars" onRetry={() => void all.refetch()} />
        ) : total === 0 ? (
          <EmptyGallery />
        ) : (
          <Tabs value={tab} onValueChange={(value) => setTab(value as GalleryTab)} className="flex flex-col gap-6">
            <div className="flex flex-col gap-3 lg:flex-row lg:items-center lg:justify-between">
              <TabsList className="w-full self-start sm:w-auto">
                <TabsTrigger value="recent" className="sm:px-5">
                  Recent ({Math.min(RECENT_TAB_COUNT, total)})
                </TabsTrigger>
                <TabsTrigger value="all" className="sm:px-5">
                  All ({total})
                </TabsTrigger>
                <TabsTrigger value="favourites" className="sm:px-5">
                  <Star aria-hidden="true" className="size-4" />
                  Favourites ({favourites.data?.pages[0]?.total ?? 0})
                </TabsTrigger>
              </TabsList>
              <div className="flex flex-wrap items-center gap-2">
                <Button
                  variant={selecting ? 'secondary' : 'outline'}
                  aria-pressed={selecting}
                  onClick={() => (selecting ? endSelecting() : setSelecting(true))}
                >
                  <CheckSquare aria-hidden="true" />
                  Select
                </Button>
                <DownloadAllButton total={total} />
              </div>
            </div>
            <TabsContent value="recent">
              <AvatarGrid avatars={shown} {...gridProps} />
            </TabsContent>
            <TabsContent value="all">
              <AvatarGrid avatars={shown} {...gridProps} />
              <LoadMore {...all} />
            </TabsContent>
            <TabsContent value="favourites">
              <FavouritesList query={favourites} avatars={shown} gridProps={gridProps} />
            </TabsContent>
          </Tabs>
        )}
        {selecting ? (
          <SelectionBar
            selectedIds={[...selected]}
            onSelectAllLoaded={() => setSelected(new Set([...selected, ...shown.map((avatar) => avatar.id)]))}
            onClear={() => setSelected(new Set())}
            onDone={endSelecting}
          />
        ) : null}
      </section>

      <AvatarDetailsDialog
        avatar={openAvatar}
        onClose={() => setOpenId(null)}
        onCloseAutoFocus={(event) => {
          // Back to the tile that opened the details (the dialog has no trigger of its own to return to);
          // when its avatar was deleted the tile is gone, so the page heading takes focus instead.
          event.preventDefault();
          const tile = openedFrom.current;
          if (tile instanceof HTMLElement && tile.isConnected) tile.focus();
          else headingRef.current?.focus();
        }}
      />
    </div>
  );
}

function FavouritesList({
  query,
  avatars,
  gridProps,
}: {
  query: AvatarPages;
  avatars: Avatar[];
  gridProps: Omit<Parameters<typeof AvatarGrid>[0], 'avatars'>;
}) {
  if (query.isPending) return <GallerySkeleton />;
  if (query.isError) return <LoadError what="your favourites" onRetry={() => void query.refetch()} />;
  if (avatars.length === 0) {
    return (
      <EmptyState
        icon={Star}
        title="No favourites yet"
        description="Star an avatar (hover or tap it, then the star) to find it here."
      />
    );
  }
  return (
    <>
      <AvatarGrid avatars={avatars} {...gridProps} />
      <LoadMore {...query} />
    </>
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

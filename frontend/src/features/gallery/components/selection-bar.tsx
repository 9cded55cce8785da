import { AVATAR_PAGE_LIMITS } from '@likeness/contracts';
import { CheckCheck, Download, Trash2, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/use-toast';
import { OUTPUT_FORMAT_LABELS, useOutputFormat } from '@/hooks/use-output-format';
import { useBulkDeleteAvatars } from '../api/bulk-delete-avatars';
import { downloadAvatarsZip } from '../api/download-zip';

interface SelectionBarProps {
  selectedIds: readonly number[];
  onSelectAllLoaded: () => void;
  onClear: () => void;
  onDone: () => void;
}

const avatarsCount = (count: number) => `${count} ${count === 1 ? 'avatar' : 'avatars'}`;

/** Select mode's actions on the chosen avatars: download them as one ZIP, or delete them in one call. */
export function SelectionBar({ selectedIds, onSelectAllLoaded, onClear, onDone }: SelectionBarProps) {
  const [format] = useOutputFormat();
  const deletion = useBulkDeleteAvatars();
  const count = selectedIds.length;
  const tooManyToDelete = count > AVATAR_PAGE_LIMITS.maxBulkDelete;
  const tooManyToZip = count > AVATAR_PAGE_LIMITS.maxZip;

  async function handleDelete() {
    try {
      const { deleted } = await deletion.mutateAsync(selectedIds);
      toast({
        title: 'Avatars deleted',
        description: `${avatarsCount(deleted)} deleted; their share links no longer work.`,
      });
      onClear();
    } catch {
      toast({ variant: 'destructive', title: 'Error', description: 'Failed to delete avatars. Please try again.' });
    }
  }

  function handleDownload() {
    downloadAvatarsZip(format, selectedIds);
    toast({
      title: 'Download started',
      description: `A ZIP of ${avatarsCount(count)} is downloading as ${OUTPUT_FORMAT_LABELS[format]}, each with its prompt.`,
    });
  }

  return (
    <div
      role="region"
      aria-label="Selected avatars"
      className="sticky bottom-[calc(env(safe-area-inset-bottom)+4.5rem)] z-20 mt-6 flex flex-col gap-3 rounded-2xl border bg-card p-3 shadow-lg md:bottom-4 sm:flex-row sm:flex-wrap sm:items-center"
    >
      <p className="text-sm font-medium sm:mr-auto" aria-live="polite">
        {count === 0 ? 'Select avatars to download or delete them.' : `${avatarsCount(count)} selected`}
        {tooManyToDelete ? (
          <span className="block text-xs font-normal text-muted-foreground">
            Up to {AVATAR_PAGE_LIMITS.maxBulkDelete} can be deleted at once
            {tooManyToZip ? ` and ${AVATAR_PAGE_LIMITS.maxZip} downloaded` : ''}.
          </span>
        ) : null}
      </p>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={onSelectAllLoaded}>
          <CheckCheck aria-hidden="true" />
          Select all loaded
        </Button>
        <Button variant="outline" size="sm" disabled={count === 0 || tooManyToZip} onClick={handleDownload}>
          <Download aria-hidden="true" />
          Download selected
        </Button>
        <ConfirmDialog
          trigger={
            <Button variant="destructive" size="sm" disabled={count === 0 || tooManyToDelete}>
              <Trash2 aria-hidden="true" />
              Delete selected
            </Button>
          }
          title="Are you sure?"
          description={`This permanently deletes ${avatarsCount(count)}, and their share links stop working. This can't be undone.`}
          confirmLabel={`Delete ${avatarsCount(count)}`}
          pending={deletion.isPending}
          onConfirm={handleDelete}
        />
        <Button variant="ghost" size="sm" onClick={onDone}>
          <X aria-hidden="true" />
          Done
        </Button>
      </div>
    </div>
  );
}

import type { UploadedImage } from '@likeness/contracts';
import { Trash2 } from 'lucide-react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOr } from '@/lib/api-client';
import { useDeleteUploadedImage } from '../api/delete-uploaded-image';

/** The trash button on a selfie, with a confirmation. */
export function DeleteSelfieButton({ image }: { image: UploadedImage }) {
  const deletion = useDeleteUploadedImage();

  async function handleConfirm() {
    try {
      // mutateAsync: the tile unmounts as soon as the selfie leaves the list; the promise still settles.
      await deletion.mutateAsync(image.id);
      toast({ title: 'Selfie deleted', description: `${image.originalFilename} was removed from your selfies.` });
    } catch (error) {
      toast({
        variant: 'destructive',
        title: 'Delete failed',
        description: serverMessageOr(error, 'Failed to delete selfie.'),
      });
    }
  }

  return (
    <ConfirmDialog
      trigger={
        <button
          type="button"
          aria-label={`Delete ${image.originalFilename}`}
          title="Delete"
          className="grid size-8 place-items-center rounded-full bg-background/90 text-foreground shadow-sm ring-1 ring-border backdrop-blur transition-colors hover:bg-destructive hover:text-destructive-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <Trash2 className="size-4" aria-hidden="true" />
        </button>
      }
      title="Delete this selfie?"
      description={`${image.originalFilename} will be removed from your selfies. This can't be undone.`}
      confirmLabel="Delete selfie"
      pending={deletion.isPending}
      onConfirm={handleConfirm}
    />
  );
}

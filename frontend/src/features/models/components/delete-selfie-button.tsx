import type { UploadedImage } from '@likeness/contracts';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOr } from '@/lib/api-client';
import { useDeleteUploadedImage } from '../api/delete-uploaded-image';

/** The trash button on a selfie, with a confirmation. */
export function DeleteSelfieButton({ image }: { image: UploadedImage }) {
  const [confirming, setConfirming] = useState(false);
  const deletion = useDeleteUploadedImage();

  async function handleConfirm() {
    try {
      // mutateAsync: the tile unmounts as soon as the selfie leaves the list; the promise still settles.
      await deletion.mutateAsync(image.id);
      setConfirming(false);
      toast({ title: 'Selfie deleted', description: `${image.originalFilename} was removed from your selfies.` });
    } catch (error) {
      setConfirming(false);
      toast({
        variant: 'destructive',
        title: 'Delete failed',
        description: serverMessageOr(error, 'Failed to delete selfie.'),
      });
    }
  }

  return (
    <AlertDialog open={confirming} onOpenChange={(open) => !deletion.isPending && setConfirming(open)}>
      <AlertDialogTrigger
        aria-label={`Delete ${image.originalFilename}`}
        title="Delete"
        className="grid size-8 place-items-center rounded-full bg-background/90 text-foreground shadow-sm ring-1 ring-border backdrop-blur transition-colors hover:bg-destructive hover:text-destructive-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <Trash2 className="size-4" aria-hidden="true" />
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete this selfie?</AlertDialogTitle>
          <AlertDialogDescription>
            {image.originalFilename} will be removed from your selfies. This can't be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={deletion.isPending}>Cancel</AlertDialogCancel>
          <AlertDialogAction
            disabled={deletion.isPending}
            onClick={(event) => {
              // Stay open with a spinner until the server answers.
              event.preventDefault();
              void handleConfirm();
            }}
          >
            {deletion.isPending ? <Spinner /> : null}
            Delete selfie
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

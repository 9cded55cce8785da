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
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { useDeleteAvatar } from '../api/delete-avatar';

/**
 * The trash button of the details, with its "Are you sure?" confirmation. Once the avatar is
 * deleted it leaves the list, which closes the details.
 */
export function DeleteAvatarButton({ avatarId }: { avatarId: number }) {
  const [confirming, setConfirming] = useState(false);
  const deletion = useDeleteAvatar();

  async function handleConfirm() {
    try {
      // mutateAsync: the details close as soon as the avatar leaves the list; the promise still settles.
      await deletion.mutateAsync(avatarId);
      setConfirming(false);
      toast({
        title: 'Avatar deleted',
        description: 'It is gone from your gallery and its share link no longer works.',
      });
    } catch {
      setConfirming(false);
      toast({ variant: 'destructive', title: 'Error', description: 'Failed to delete avatar. Please try again.' });
    }
  }

  return (
    <AlertDialog open={confirming} onOpenChange={(open) => !deletion.isPending && setConfirming(open)}>
      <AlertDialogTrigger asChild>
        <Button variant="ghost" className="text-destructive hover:bg-destructive/10 hover:text-destructive">
          <Trash2 aria-hidden="true" />
          Delete
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Are you sure?</AlertDialogTitle>
          <AlertDialogDescription>
            This permanently deletes the avatar, and its share link stops working. This can't be undone.
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
            Delete avatar
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

import { Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/use-toast';
import { useDeleteAvatar } from '../api/delete-avatar';

/**
 * A delete button (the details' trash button unless another trigger is given) with its "Are you
 * sure?" confirmation. Once the avatar is deleted it leaves the lists, which closes the details.
 */
export function DeleteAvatarButton({ avatarId, trigger }: { avatarId: number; trigger?: ReactNode }) {
  const deletion = useDeleteAvatar();

  async function handleConfirm() {
    try {
      // mutateAsync: the details close as soon as the avatar leaves the list; the promise still settles.
      await deletion.mutateAsync(avatarId);
      toast({
        title: 'Avatar deleted',
        description: 'It is gone from your gallery and its share link no longer works.',
      });
    } catch {
      toast({ variant: 'destructive', title: 'Error', description: 'Failed to delete avatar. Please try again.' });
    }
  }

  return (
    <ConfirmDialog
      trigger={
        trigger ?? (
          <Button variant="ghost" className="text-destructive hover:bg-destructive/10 hover:text-destructive">
            <Trash2 aria-hidden="true" />
            Delete
          </Button>
        )
      }
      title="Are you sure?"
      description="This permanently deletes the avatar, and its share link stops working. This can't be undone."
      confirmLabel="Delete avatar"
      pending={deletion.isPending}
      onConfirm={handleConfirm}
    />
  );
}

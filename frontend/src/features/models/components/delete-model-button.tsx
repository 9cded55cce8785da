import { Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOr } from '@/lib/api-client';
import { useDeleteCustomModel } from '../api/delete-custom-model';
import type { ListedModel } from '@/lib/custom-models/get-custom-models';

/** The trash button on a model that is not training, with its confirmation. */
export function DeleteModelButton({ model }: { model: ListedModel }) {
  const deletion = useDeleteCustomModel();

  async function handleConfirm() {
    try {
      // mutateAsync: the item unmounts as soon as the model leaves the list; the promise still settles.
      await deletion.mutateAsync(model.id);
      toast({ title: 'Model deleted', description: `"${model.modelName}" was removed from your models.` });
    } catch (error) {
      toast({
        variant: 'destructive',
        title: 'Delete failed',
        description: serverMessageOr(error, 'Failed to delete model.'),
      });
    }
  }

  return (
    <ConfirmDialog
      trigger={
        <Button
          variant="ghost"
          size="icon-sm"
          className="-mt-1 -mr-2 size-8 text-muted-foreground hover:bg-destructive/10 hover:text-destructive"
          aria-label={`Delete ${model.modelName}`}
          title="Delete model"
        >
          <Trash2 aria-hidden="true" />
        </Button>
      }
      title="Delete this model?"
      description={`"${model.modelName}" will be removed, and its trigger word "${model.triggerWord}" will no longer work in prompts. This can't be undone.`}
      confirmLabel="Delete model"
      pending={deletion.isPending}
      onConfirm={handleConfirm}
    />
  );
}

import { avatarSchema, type Avatar } from '@likeness/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { apiRequest } from '@/lib/api-client';
import { AVATARS_QUERY_KEY } from '@/lib/avatars/get-avatars';
import { rememberAvatar } from './avatar-cache';

/** PUT /api/avatars/{id}/favourite: stars or unstars one of the user's avatars. */
export function setFavourite({ id, favourite }: { id: number; favourite: boolean }): Promise<Avatar> {
  return apiRequest('PUT', `/api/avatars/${id}/favourite`, { body: { favourite }, schema: avatarSchema });
}

export function useFavouriteAvatar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setFavourite,
    onSuccess: (avatar) => {
      rememberAvatar(queryClient, avatar);
      // The Favourites list gains or loses it.
      void queryClient.invalidateQueries({ queryKey: AVATARS_QUERY_KEY });
    },
    onError: () => {
      toast({
        variant: 'destructive',
        title: 'Error',
        description: 'The favourite could not be saved. Please try again.',
      });
    },
  });
}

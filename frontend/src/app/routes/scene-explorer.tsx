import { SceneExplorerPage } from '@/features/scene-explorer/components/scene-explorer-page';
import { usePublicSession } from '../route-guards';

export function Component() {
  const { user, isLoading } = usePublicSession();
  return <SceneExplorerPage signedIn={!isLoading && user !== null} />;
}

import { LandingPage } from '@/features/landing/components/landing-page';
import { usePublicSession } from '../route-guards';

/** `/`: painted at once for everyone; a signed-in user's avatars replace the examples once the session answers. */
export function Component() {
  const { user, isLoading } = usePublicSession();
  return <LandingPage user={isLoading ? null : user} />;
}

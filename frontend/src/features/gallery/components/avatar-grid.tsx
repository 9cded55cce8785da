import type { Avatar } from '@likeness/contracts';
import { AvatarCard } from './avatar-card';

export const avatarGridClasses = 'grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 lg:grid-cols-4';

export function AvatarGrid({ avatars, onOpen }: { avatars: readonly Avatar[]; onOpen: (avatar: Avatar) => void }) {
  return (
    <ul className={avatarGridClasses}>
      {avatars.map((avatar) => (
        <li key={avatar.id} className="min-w-0">
          <AvatarCard avatar={avatar} onOpen={onOpen} />
        </li>
      ))}
    </ul>
  );
}

import type { Avatar } from '@likeness/contracts';
import { AvatarCard } from './avatar-card';

export const avatarGridClasses = 'grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 lg:grid-cols-4';

export interface GridSelection {
  isSelected: (avatar: Avatar) => boolean;
  onToggle: (avatar: Avatar) => void;
}

interface AvatarGridProps {
  avatars: readonly Avatar[];
  onOpen: (avatar: Avatar) => void;
  /** Phones: the tile whose actions a tap revealed. */
  revealedId: number | null;
  onReveal: (avatar: Avatar) => void;
  /** Present in select mode. */
  selection?: GridSelection;
}

export function AvatarGrid({ avatars, onOpen, revealedId, onReveal, selection }: AvatarGridProps) {
  return (
    <ul className={avatarGridClasses}>
      {avatars.map((avatar) => (
        <li key={avatar.id} className="min-w-0">
          <AvatarCard
            avatar={avatar}
            onOpen={onOpen}
            revealed={revealedId === avatar.id}
            onReveal={onReveal}
            selection={selection ? { selected: selection.isSelected(avatar), onToggle: selection.onToggle } : undefined}
          />
        </li>
      ))}
    </ul>
  );
}

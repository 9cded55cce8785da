import { TRAINING_COST } from '@likeness/contracts';
import { Coins, House, type LucideIcon } from 'lucide-react';
import { paths } from '@/config/paths';

export interface NavItem {
  to: string;
  label: string;
  icon: LucideIcon;
  /** Drawn in an accent colour while the balance is below {@link LOW_CREDITS_THRESHOLD}. */
  highlightWhenLowOnCredits?: boolean;
}

/** SPEC §9: below this balance the Credits item stands out (it is what one model training costs). */
export const LOW_CREDITS_THRESHOLD = TRAINING_COST;

const home: NavItem = { to: paths.dashboard, label: 'Home', icon: House };
const credits: NavItem = { to: paths.credits, label: 'Credits', icon: Coins, highlightWhenLowOnCredits: true };

/**
 * The signed-in header navigation on wide screens. Each screen adds its entry when it lands:
 * Create, Gallery, Models, Admin (id 1). Credits is reached from the header's balance badge.
 */
export const mainNav: readonly NavItem[] = [home];

/** SPEC §2: the bottom bar on phones, Home, Create, Gallery, Models and Credits. */
export const bottomNav: readonly NavItem[] = [home, credits];

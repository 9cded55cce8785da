import { TRAINING_COST } from '@likeness/contracts';
import { Coins, House, Images, ShieldCheck, Sparkles, Wand2, type LucideIcon } from 'lucide-react';
import { landingSections, paths } from '@/config/paths';

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
const create: NavItem = { to: paths.create, label: 'Create', icon: Sparkles };
const gallery: NavItem = { to: paths.gallery, label: 'Gallery', icon: Images };
const models: NavItem = { to: paths.models, label: 'Models', icon: Wand2 };
const credits: NavItem = { to: paths.credits, label: 'Credits', icon: Coins, highlightWhenLowOnCredits: true };

const admin: NavItem = { to: paths.admin, label: 'Admin', icon: ShieldCheck };

/**
 * SPEC §2: the signed-in header navigation on wide screens, Home, Create, Gallery and Models,
 * plus Admin for the administrator. Credits is reached from the header's balance badge.
 */
export function mainNav({ admin: showAdmin }: { admin: boolean }): readonly NavItem[] {
  return showAdmin ? [home, create, gallery, models, admin] : [home, create, gallery, models];
}

/** SPEC §2: the bottom bar on phones, Home, Create, Gallery, Models and Credits. */
export const bottomNav: readonly NavItem[] = [home, create, gallery, models, credits];

/** SPEC §2: the public header's links, to the landing page's sections and the scene explorer. */
export const publicNav: readonly { to: string; label: string }[] = [
  { to: landingSections.howItWorks, label: 'How It Works' },
  { to: landingSections.examples, label: 'Examples' },
  { to: paths.sceneExplorer, label: 'Scene Explorer' },
  { to: landingSections.pricing, label: 'Pricing' },
];

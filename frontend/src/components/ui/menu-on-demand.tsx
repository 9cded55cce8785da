import { Suspense, useState, type ReactElement, type ReactNode } from 'react';

/** What the stand-in button of a menu on demand needs: the menu's ARIA and the handlers that load it. */
export interface MenuStandInProps {
  'aria-haspopup': 'menu';
  'aria-expanded': false;
  onPointerEnter: () => void;
  onFocus: () => void;
  onClick: () => void;
}

interface MenuOnDemandProps {
  /** Starts downloading the menu's module (pointing at the button or focusing it does). */
  preload: () => unknown;
  /** The button drawn until the menu's code is there, looking like the menu's trigger. */
  standIn: (props: MenuStandInProps) => ReactElement;
  /** The lazy menu, opened at once: it is shown only after the stand-in was pressed. */
  menu: ReactNode;
}

/**
 * A dropdown menu whose code (Radix, with its positioning) loads when it is first used instead
 * of with the page. The stand-in is a plain button drawn like the trigger; pressing it swaps in
 * the real menu, opened, as soon as its code arrives.
 */
export function MenuOnDemand({ preload, standIn, menu }: MenuOnDemandProps) {
  const [wanted, setWanted] = useState(false);
  const button = standIn({
    'aria-haspopup': 'menu',
    'aria-expanded': false,
    onPointerEnter: () => void preload(),
    onFocus: () => void preload(),
    onClick: () => setWanted(true),
  });
  if (!wanted) return button;
  return <Suspense fallback={button}>{menu}</Suspense>;
}

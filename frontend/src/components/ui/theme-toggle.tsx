import { lazy } from 'react';
import { MenuOnDemand } from './menu-on-demand';
import { ThemeButton } from './theme-button';

const loadThemeMenu = () => import('./theme-menu');
const ThemeMenu = lazy(() => loadThemeMenu().then((module) => ({ default: module.ThemeMenu })));

/** The header's theme menu (System, Light, Dark); its menu code loads when it is first used. */
export function ThemeToggle() {
  return (
    <MenuOnDemand
      preload={loadThemeMenu}
      standIn={(props) => <ThemeButton {...props} />}
      menu={<ThemeMenu defaultOpen />}
    />
  );
}

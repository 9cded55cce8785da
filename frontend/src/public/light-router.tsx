import { createContext, useContext, useEffect, type AnchorHTMLAttributes, type ReactNode } from 'react';

// The part of react-router's API the public pages use, for their own bundle (build-tools/public-build.ts
// puts this module in react-router's place there). A public page is one document: its links to
// other screens are full page loads, and the full app takes over from there.

export interface LightLocation {
  pathname: string;
  search: string;
  hash: string;
  state: unknown;
}

export type To = string | { pathname?: string; search?: string; hash?: string };

interface NavigateOptions {
  replace?: boolean;
}

const LocationContext = createContext<LightLocation>({ pathname: '/', search: '', hash: '', state: null });
/** The layouts and the page still to draw, outermost first: each `<Outlet />` draws the next. */
const OutletContext = createContext<readonly ReactNode[]>([]);

function href(to: To): string {
  return typeof to === 'string' ? to : `${to.pathname ?? ''}${to.search ?? ''}${to.hash ?? ''}`;
}

/** Draws `layers` (e.g. the root layout, the public layout, the page) at `location`. */
export function LightRouter({ location, layers }: { location: LightLocation; layers: readonly ReactNode[] }) {
  return (
    <LocationContext.Provider value={location}>
      <OutletContext.Provider value={layers}>
        <Outlet />
      </OutletContext.Provider>
    </LocationContext.Provider>
  );
}

export function Outlet() {
  const [next = null, ...rest] = useContext(OutletContext);
  return <OutletContext.Provider value={rest}>{next}</OutletContext.Provider>;
}

export function useLocation(): LightLocation {
  return useContext(LocationContext);
}

export function useMatches(): [] {
  return [];
}

/** Another screen is a page load: no navigation is ever pending in the page. */
export function useNavigation(): { state: 'idle'; location: undefined } {
  return { state: 'idle', location: undefined };
}

function go(to: To | number, { replace = false }: NavigateOptions = {}): void {
  if (typeof to === 'number') window.history.go(to);
  else if (replace) window.location.replace(href(to));
  else window.location.assign(href(to));
}

export function useNavigate(): (to: To | number, options?: NavigateOptions) => void {
  return go;
}

export function Navigate({ to, replace }: { to: To; replace?: boolean }) {
  useEffect(() => go(to, { replace }), [to, replace]);
  return null;
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: To };

/** A plain link: the public pages pass none of react-router's own props (state, replace, ...). */
export function Link({ to, children, ...rest }: LinkProps) {
  return (
    <a href={href(to)} {...rest}>
      {children}
    </a>
  );
}

/** The page keeps the browser's own scrolling: a document load restores it. */
export function ScrollRestoration() {
  return null;
}

/** Matches `/a/:b` patterns segment by segment, as the page titles need (no splats or optional segments). */
export function matchPath(pattern: string, pathname: string): { params: Record<string, string> } | null {
  const wanted = pattern.split('/').filter(Boolean);
  const actual = pathname.split('/').filter(Boolean);
  if (wanted.length !== actual.length) return null;
  const params: Record<string, string> = {};
  for (const [index, segment] of wanted.entries()) {
    const value = actual[index] ?? '';
    if (segment.startsWith(':')) params[segment.slice(1)] = decodeURIComponent(value);
    else if (segment !== value) return null;
  }
  return { params };
}

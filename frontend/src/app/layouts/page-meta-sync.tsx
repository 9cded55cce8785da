import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { pageMetaFor } from '../page-meta';

/** Keeps the document's title and meta description in step with the route. */
export function PageMetaSync() {
  const { pathname } = useLocation();

  useEffect(() => {
    const { title, description } = pageMetaFor(pathname);
    document.title = title;
    document.querySelector('meta[name="description"]')?.setAttribute('content', description);
  }, [pathname]);

  return null;
}

import { useEffect, useState, type ComponentType } from 'react';
import { loadedToaster, loadToaster } from './toaster-loader';
import { useToasts } from './use-toast';

/**
 * The toaster, mounted once the first toast is raised and kept from then on (its region, with
 * the F8 hotkey, stays for the toasts that follow). Before that there is nothing to show.
 */
export function ToasterOnDemand() {
  const toasts = useToasts();
  const hasToasts = toasts.length > 0;
  const [Toaster, setToaster] = useState<ComponentType>();
  useEffect(() => {
    if (!hasToasts || Toaster) return;
    let current = true;
    // Should the download fail, the next toast asks again (the store keeps the toasts meanwhile).
    loadToaster().then(
      (loaded) => current && setToaster(() => loaded),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [toasts, hasToasts, Toaster]);
  // Its code already here (a mutation started, or an earlier toast): shown at once.
  const alreadyLoaded = loadedToaster();
  if (!Toaster && hasToasts && alreadyLoaded) setToaster(() => alreadyLoaded);
  return Toaster ? <Toaster /> : null;
}

import { useCallback, useEffect, useState } from 'react';
import { toast, type ToastOptions } from '@/components/ui/use-toast';
import { copyText } from '@/lib/clipboard';

/** SPEC §9: the copied check mark shows for 2 seconds. */
const COPIED_MS = 2000;

/**
 * Copies text and says so with the given toast; `copied` stays true for 2 seconds afterwards so
 * the button can show a check mark. A refused clipboard says "Copy failed".
 */
export function useCopyText(): { copied: boolean; copy: (text: string, done: ToastOptions) => Promise<boolean> } {
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = useCallback(async (text: string, done: ToastOptions) => {
    try {
      await copyText(text);
    } catch {
      toast({ variant: 'destructive', title: 'Copy failed', description: 'There was an error copying the prompt.' });
      return false;
    }
    setCopied(true);
    toast(done);
    return true;
  }, []);

  return { copied, copy };
}

import { useCallback, useEffect, useState } from 'react';
import { toast } from '@/components/ui/use-toast';
import { copyText } from '@/lib/clipboard';

/** SPEC §9: the copied check mark shows for 2 seconds. */
const COPIED_MS = 2000;

/**
 * Copies an avatar's prompt and says so in a toast (SPEC §2, §9); `copied` stays true for a
 * moment afterwards so the button can show a check mark.
 */
export function useCopyPrompt(): { copied: boolean; copyPrompt: (promptText: string) => Promise<void> } {
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copyPrompt = useCallback(async (promptText: string) => {
    if (!promptText.trim()) {
      toast({ title: 'No prompt available', description: "This avatar doesn't have a prompt to copy." });
      return;
    }
    try {
      await copyText(promptText);
      setCopied(true);
      toast({ title: 'Prompt copied', description: 'Avatar prompt copied to clipboard.' });
    } catch {
      toast({ variant: 'destructive', title: 'Copy failed', description: 'There was an error copying the prompt.' });
    }
  }, []);

  return { copied, copyPrompt };
}

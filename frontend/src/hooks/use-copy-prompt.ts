import { useCallback } from 'react';
import { toast } from '@/components/ui/use-toast';
import { useCopyText } from './use-copy-text';

/**
 * Copies an avatar's prompt and says so in a toast (SPEC §2, §9); `copied` stays true for a
 * moment afterwards so the button can show a check mark.
 */
export function useCopyPrompt(): { copied: boolean; copyPrompt: (promptText: string) => Promise<void> } {
  const { copied, copy } = useCopyText();

  const copyPrompt = useCallback(
    async (promptText: string) => {
      if (!promptText.trim()) {
        toast({ title: 'No prompt available', description: "This avatar doesn't have a prompt to copy." });
        return;
      }
      await copy(promptText, { title: 'Prompt copied', description: 'Avatar prompt copied to clipboard.' });
    },
    [copy],
  );

  return { copied, copyPrompt };
}

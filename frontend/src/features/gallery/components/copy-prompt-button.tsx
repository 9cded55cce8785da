import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { copyText } from '@/lib/clipboard';

/** SPEC §9: the copied check mark shows for 2 seconds. */
const COPIED_MS = 2000;

export function CopyPromptButton({ promptText }: { promptText: string }) {
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  async function handleCopy() {
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
  }

  return (
    <Button variant="ghost" size="sm" className="-mr-2 h-8 px-2.5" onClick={() => void handleCopy()}>
      {copied ? (
        <Check className="text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
      ) : (
        <Copy aria-hidden="true" />
      )}
      {copied ? 'Copied' : 'Copy prompt'}
    </Button>
  );
}

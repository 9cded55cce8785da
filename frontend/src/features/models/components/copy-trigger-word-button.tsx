import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { copyText } from '@/lib/clipboard';

/** SPEC §9: the copied check mark shows for 2 seconds. */
const COPIED_MS = 2000;

export function CopyTriggerWordButton({ triggerWord }: { triggerWord: string }) {
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  async function handleCopy() {
    try {
      await copyText(triggerWord);
      setCopied(true);
      toast({
        title: 'Trigger word copied',
        description: `Use "${triggerWord}" in a prompt to bring in your likeness.`,
      });
    } catch {
      toast({
        variant: 'destructive',
        title: 'Copy failed',
        description: 'There was an error copying the trigger word.',
      });
    }
  }

  return (
    <Button
      variant="ghost"
      size="icon-sm"
      className="-mr-1.5 size-8"
      aria-label={`Copy trigger word ${triggerWord}`}
      title="Copy trigger word"
      onClick={() => void handleCopy()}
    >
      {copied ? (
        <Check className="text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
      ) : (
        <Copy aria-hidden="true" />
      )}
    </Button>
  );
}

import { Check, Copy } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useCopyPrompt } from '@/hooks/use-copy-prompt';

export function CopyPromptButton({ promptText }: { promptText: string }) {
  const { copied, copyPrompt } = useCopyPrompt();

  return (
    <Button variant="ghost" size="sm" className="-mr-2 h-8 px-2.5" onClick={() => void copyPrompt(promptText)}>
      {copied ? (
        <Check className="text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
      ) : (
        <Copy aria-hidden="true" />
      )}
      {copied ? 'Copied' : 'Copy prompt'}
    </Button>
  );
}

import { AVATAR_PAGE_LIMITS } from '@likeness/contracts';
import { Download } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { OUTPUT_FORMAT_LABELS, useOutputFormat } from '@/hooks/use-output-format';
import { downloadAvatarsZip } from '../api/download-zip';
import { OutputFormatSelect } from './output-format-select';

/** The download format (the same remembered setting as single downloads) and "Download all" as one ZIP. */
export function DownloadAllButton({ total }: { total: number }) {
  const [format, setFormat] = useOutputFormat();
  const selectId = useId();
  const count = Math.min(total, AVATAR_PAGE_LIMITS.maxZip);

  function handleDownload() {
    downloadAvatarsZip(format);
    toast({
      title: 'Download started',
      description:
        `A ZIP of ${total > count ? `your newest ${count}` : `all ${count}`} avatars is downloading as ` +
        `${OUTPUT_FORMAT_LABELS[format]}, each with its prompt.`,
    });
  }

  return (
    <>
      <Label htmlFor={selectId} className="sr-only">
        Download format
      </Label>
      <OutputFormatSelect id={selectId} value={format} onChange={setFormat} className="w-20 shrink-0" />
      <Button variant="outline" onClick={handleDownload}>
        <Download aria-hidden="true" />
        Download all
      </Button>
    </>
  );
}

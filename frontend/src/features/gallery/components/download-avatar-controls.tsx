import type { Avatar, ImageFormat } from '@likeness/contracts';
import { useMutation } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { useOutputFormat } from '@/hooks/use-output-format';
import { announceDownload, announceDownloadFailed, downloadAvatar } from '@/lib/avatars/download-avatar';
import { OutputFormatSelect } from './output-format-select';

/** The download format (remembered for next time) and the Download button. */
export function DownloadAvatarControls({ avatar, className }: { avatar: Avatar; className?: string }) {
  const [format, setFormat] = useOutputFormat();
  const selectId = useId();
  const download = useMutation({
    mutationFn: ({ format: chosen }: { format: ImageFormat }) => downloadAvatar(avatar, chosen),
    onSuccess: announceDownload,
    onError: announceDownloadFailed,
  });

  return (
    <div className={className}>
      <div className="grid gap-1.5">
        <Label htmlFor={selectId} className="text-xs font-medium text-muted-foreground">
          Download format
        </Label>
        <OutputFormatSelect id={selectId} value={format} onChange={setFormat} />
      </div>
      <Button variant="brand" disabled={download.isPending} onClick={() => download.mutate({ format })}>
        {download.isPending ? <Spinner /> : <Download aria-hidden="true" />}
        Download
      </Button>
    </div>
  );
}

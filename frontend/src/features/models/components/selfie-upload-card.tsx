import { SELFIE_LIMITS, uploadMessages } from '@likeness/contracts';
import { CloudUpload, Upload } from 'lucide-react';
import { useId, useRef, useState, type DragEvent, type MouseEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { TRAINING_IMAGES } from '../utils/training-selection';
import { Progress } from '@/components/ui/progress';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { serverMessageOr } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { useUploadSelfies } from '../api/upload-selfies';
import { useSimulatedProgress } from '../hooks/use-simulated-progress';
import { ACCEPT_ATTRIBUTE, checkSelfieCount, checkSelfieFile, isSameFile } from '../utils/check-selfies';
import { SelfiePreview } from './selfie-preview';
import { StepNumber } from './step-number';

interface PickedSelfie {
  key: number;
  file: File;
}

function selfies(count: number): string {
  return `${count} ${count === 1 ? 'selfie' : 'selfies'}`;
}

function refuse(title: string, description: string): void {
  toast({ variant: 'destructive', title, description });
}

/** "Upload Your Selfies": pick or drop images, check them as the server will, preview, upload. */
export function SelfieUploadCard({ storedCount }: { storedCount: number }) {
  const [picked, setPicked] = useState<PickedSelfie[]>([]);
  const [dragging, setDragging] = useState(false);
  const nextKey = useRef(0);
  const upload = useUploadSelfies();
  const progress = useSimulatedProgress();
  const hintId = useId();
  const progressLabelId = useId();
  const uploading = upload.isPending;

  function add(fileList: FileList | null) {
    if (uploading || !fileList || fileList.length === 0) return;
    const fresh = Array.from(fileList).filter((file) => !picked.some((item) => isSameFile(item.file, file)));
    if (fresh.length === 0) return;

    const countProblem = checkSelfieCount({ stored: storedCount, selected: picked.length, adding: fresh.length });
    if (countProblem) return refuse(countProblem.title, countProblem.description);

    const problems: string[] = [];
    const accepted: PickedSelfie[] = [];
    for (const file of fresh) {
      const problem = checkSelfieFile(file);
      if (problem) problems.push(problem);
      else accepted.push({ key: nextKey.current++, file });
    }
    const [firstProblem, ...otherProblems] = problems;
    if (firstProblem) {
      const others = otherProblems.length;
      refuse(
        'Upload failed',
        others === 0
          ? firstProblem
          : `${firstProblem} ${others} more ${others === 1 ? 'file was' : 'files were'} skipped too.`,
      );
    }
    if (accepted.length > 0) setPicked((current) => [...current, ...accepted]);
  }

  function handleBrowse(event: MouseEvent<HTMLInputElement>) {
    // With no room left, say so instead of opening a file dialog that cannot lead anywhere.
    if (storedCount >= SELFIE_LIMITS.maxStored) {
      event.preventDefault();
      refuse('Upload limit reached', uploadMessages.limitReached);
    }
  }

  function handleDragOver(event: DragEvent<HTMLElement>) {
    if (!event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = uploading ? 'none' : 'copy';
    setDragging(true);
  }

  function handleDragLeave(event: DragEvent<HTMLElement>) {
    // Leaving for a child of the zone is not leaving the zone.
    if (event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget)) return;
    setDragging(false);
  }

  function handleDrop(event: DragEvent<HTMLElement>) {
    event.preventDefault();
    setDragging(false);
    add(event.dataTransfer.files);
  }

  function handleUpload() {
    if (uploading || picked.length === 0) return;
    progress.start();
    upload.mutate(
      picked.map((item) => item.file),
      {
        onSuccess: ({ uploadedFiles }) => {
          progress.complete();
          setPicked([]);
          toast({
            title: 'Upload successful!',
            description: `${selfies(uploadedFiles.length)} uploaded successfully.`,
          });
        },
        onError: (error) => {
          progress.reset();
          refuse('Upload failed', serverMessageOr(error, 'Failed to upload selfies. Please try again.'));
        },
      },
    );
  }

  return (
    <Card className="flex flex-col">
      <CardHeader className="pb-4">
        <div className="flex items-center justify-between gap-3">
          <div className="flex items-center gap-3">
            <StepNumber step={1} done={storedCount >= TRAINING_IMAGES.min} />
            <CardTitle as="h2">Upload Your Selfies</CardTitle>
          </div>
          <span className="shrink-0 rounded-full bg-muted px-2.5 py-0.5 text-xs font-medium text-muted-foreground tabular-nums">
            {storedCount}/{SELFIE_LIMITS.maxStored} stored
          </span>
        </div>
        <CardDescription>
          12-20 clear photos of just you, with varied angles, expressions and lighting, make the best model.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-4">
        <label
          onDragEnter={handleDragOver}
          onDragOver={handleDragOver}
          onDragLeave={handleDragLeave}
          onDrop={handleDrop}
          data-dragging={dragging || undefined}
          className={cn(
            'flex flex-1 cursor-pointer flex-col items-center justify-center gap-3 rounded-xl border-2 border-dashed px-4 py-8 text-center transition-colors',
            'hover:border-primary/60 hover:bg-primary/[0.04]',
            'has-[input:focus-visible]:ring-2 has-[input:focus-visible]:ring-ring has-[input:focus-visible]:ring-offset-2 has-[input:focus-visible]:ring-offset-background',
            'data-[dragging]:border-primary data-[dragging]:bg-primary/[0.07]',
            uploading && 'pointer-events-none opacity-60',
          )}
        >
          <input
            type="file"
            multiple
            accept={ACCEPT_ATTRIBUTE}
            aria-label="Choose selfies to upload"
            aria-describedby={hintId}
            disabled={uploading}
            onClick={handleBrowse}
            onChange={(event) => {
              add(event.target.files);
              // Picking the same files again must fire another change.
              event.target.value = '';
            }}
            className="sr-only"
          />
          <span className="grid size-12 place-items-center rounded-2xl bg-primary/10 text-primary">
            <CloudUpload className="size-6" aria-hidden="true" />
          </span>
          <span className="flex flex-col gap-1">
            <span className="font-medium">
              {dragging ? 'Drop your selfies here' : 'Drag and drop your selfies here'}
            </span>
            <span className="text-sm text-muted-foreground">
              or <span className="font-medium text-primary underline-offset-4 hover:underline">browse your files</span>
            </span>
          </span>
          <span id={hintId} className="text-xs text-muted-foreground">
            JPG, PNG, GIF or WebP, max 5MB each
          </span>
        </label>

        {picked.length > 0 ? (
          <div className="flex flex-col gap-3">
            <div className="flex items-center justify-between gap-2">
              <p className="text-sm font-medium" aria-live="polite">
                {selfies(picked.length)} ready to upload
              </p>
              <Button
                variant="ghost"
                size="sm"
                className="-mr-2 h-8 px-2.5"
                disabled={uploading}
                onClick={() => setPicked([])}
              >
                Clear
              </Button>
            </div>
            <ul className="grid grid-cols-4 gap-2 sm:grid-cols-5 lg:grid-cols-4">
              {picked.map((item) => (
                <SelfiePreview
                  key={item.key}
                  file={item.file}
                  disabled={uploading}
                  onRemove={() => setPicked((current) => current.filter((other) => other.key !== item.key))}
                />
              ))}
            </ul>
            <Button variant="brand" size="lg" disabled={uploading} onClick={handleUpload}>
              {uploading ? <Spinner /> : <Upload aria-hidden="true" />}
              {uploading ? 'Uploading...' : `Upload ${selfies(picked.length)}`}
            </Button>
          </div>
        ) : null}

        {progress.value !== null ? (
          <div className="flex flex-col gap-2">
            <div className="flex items-center justify-between text-xs font-medium text-muted-foreground">
              <span id={progressLabelId}>{progress.value < 100 ? 'Uploading your selfies...' : 'Upload complete'}</span>
              <span className="tabular-nums">{Math.round(progress.value)}%</span>
            </div>
            <Progress value={progress.value} aria-labelledby={progressLabelId} />
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}

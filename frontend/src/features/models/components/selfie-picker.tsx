import { SELFIE_LIMITS, type UploadedImage } from '@likeness/contracts';
import { CircleAlert, CircleCheck, Images, Info } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { LoadError } from '@/components/ui/load-error';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/cn';
import type { SelfieSelection } from '../hooks/use-selfie-selection';
import { selectionGuidance, selectionStatus, TRAINING_IMAGES } from '../utils/training-selection';
import { SelfieTile } from './selfie-tile';
import { StepNumber } from './step-number';

interface SelfiePickerProps {
  images: { data: UploadedImage[] | undefined; isPending: boolean; isError: boolean; refetch: () => unknown };
  selection: SelfieSelection;
}

const guidanceStyle = {
  'too-few': { icon: Info, className: 'text-muted-foreground' },
  'too-many': { icon: CircleAlert, className: 'text-destructive' },
  ready: { icon: CircleCheck, className: 'text-emerald-600 dark:text-emerald-400' },
} as const;

const tileGridClasses = 'grid grid-cols-3 gap-2.5 sm:grid-cols-4 sm:gap-3 lg:grid-cols-5';

/** SPEC §2/§5: "Image Selection (n/20)": the stored selfies to choose a training set from. */
export function SelfiePicker({ images, selection }: SelfiePickerProps) {
  const headingId = useId();
  const count = selection.selectedIds.length;
  const status = selectionStatus(count);
  const { icon: GuidanceIcon, className: guidanceClassName } = guidanceStyle[status];
  const listed = images.data ?? [];
  const hasImages = listed.length > 0;

  return (
    <Card aria-labelledby={headingId} role="region">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 pb-4">
        <div className="flex min-w-0 flex-col gap-1.5">
          <div className="flex items-center gap-3">
            <StepNumber step={2} done={status === 'ready'} />
            <CardTitle as="h2" id={headingId}>
              Image Selection ({count}/{TRAINING_IMAGES.max})
            </CardTitle>
          </div>
          <p aria-live="polite" className={cn('flex items-start gap-1.5 text-sm font-medium', guidanceClassName)}>
            <GuidanceIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            {selectionGuidance(count)}
          </p>
        </div>
        {hasImages ? (
          <Button
            variant="outline"
            size="sm"
            onClick={selection.allSelected ? selection.clear : selection.selectAll}
            title={selection.allSelected ? undefined : `Selects the first ${SELFIE_LIMITS.selectAll} selfies`}
          >
            {selection.allSelected ? 'Clear All' : 'Select All'}
          </Button>
        ) : null}
      </CardHeader>
      <CardContent>
        {images.isPending ? (
          <div role="status" aria-label="Loading your selfies..." className={tileGridClasses}>
            {Array.from({ length: 10 }, (_, index) => (
              <div key={index} className="aspect-square animate-pulse rounded-xl bg-muted" />
            ))}
          </div>
        ) : images.isError ? (
          <LoadError what="your selfies" onRetry={() => void images.refetch()} compact />
        ) : !hasImages ? (
          <div className="flex flex-col items-center gap-3 rounded-xl border border-dashed px-6 py-10 text-center">
            <span className="grid size-12 place-items-center rounded-2xl bg-primary/10 text-primary">
              <Images className="size-6" aria-hidden="true" />
            </span>
            <p className="font-medium">No selfies yet</p>
            <p className="max-w-sm text-sm text-muted-foreground">
              Upload {TRAINING_IMAGES.min}-{TRAINING_IMAGES.max} photos of yourself, then choose the ones to train your
              model on here.
            </p>
          </div>
        ) : (
          <fieldset className="min-w-0">
            <legend className="sr-only">Selfies for training</legend>
            <ul className={tileGridClasses}>
              {listed.map((image) => (
                <SelfieTile
                  key={image.id}
                  image={image}
                  selected={selection.isSelected(image.id)}
                  onToggle={() => selection.toggle(image.id)}
                />
              ))}
            </ul>
          </fieldset>
        )}
      </CardContent>
    </Card>
  );
}

import { useUploadedImages } from '../api/get-uploaded-images';
import { useSelfieSelection } from '../hooks/use-selfie-selection';
import { SelfiePicker } from './selfie-picker';
import { SelfieUploadCard } from './selfie-upload-card';

/**
 * /models: upload selfies and choose a training set from them. The page owns the selection so
 * the training card (beside the upload card) can read it; the list of trained models goes
 * under the grid.
 */
export function ModelsPage() {
  const images = useUploadedImages();
  const selection = useSelfieSelection(images.data);

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 md:py-12 lg:px-8">
      <header className="flex flex-col gap-2">
        <h1 className="text-3xl font-semibold tracking-tight text-balance sm:text-4xl">Custom AI Models</h1>
        <p className="max-w-2xl text-base text-muted-foreground sm:text-lg">
          Upload your selfies and choose 12-20 of them to train a personal AI model that knows your likeness.
        </p>
      </header>

      <div className="mt-8 grid items-start gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <div className="flex min-w-0 flex-col gap-6">
          <SelfieUploadCard storedCount={images.data?.length ?? 0} />
        </div>
        <SelfiePicker images={images} selection={selection} />
      </div>
    </div>
  );
}

import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useCustomModels } from '@/lib/custom-models/get-custom-models';
import { uploadedImagesQueryOptions, useUploadedImages } from '@/lib/uploaded-images/get-uploaded-images';
import { useSelfieSelection } from '../hooks/use-selfie-selection';
import { useTrainingEnded } from '../hooks/use-training-ended';
import { CustomModelsList } from './custom-models-list';
import { SelfiePicker } from './selfie-picker';
import { SelfieUploadCard } from './selfie-upload-card';
import { TrainModelCard } from './train-model-card';

interface ModelsPageProps {
  username: string;
  credits: number;
  /** Refreshes the user's balance: after a training starts (30 credits held) or ends (a failure gives them back). */
  onCreditsChanged: () => void;
}

/**
 * /models: upload selfies, choose a training set from them, train a model on it and follow it in
 * "Your Custom Models". The page owns the selection: the picker changes it, the training card reads it.
 */
export function ModelsPage({ username, credits, onCreditsChanged }: ModelsPageProps) {
  const queryClient = useQueryClient();
  const images = useUploadedImages();
  const selection = useSelfieSelection(images.data);
  const models = useCustomModels();
  const { clear } = selection;

  const handleTrainingStarted = useCallback(() => {
    clear();
    onCreditsChanged();
  }, [clear, onCreditsChanged]);

  useTrainingEnded(
    models.data,
    useCallback(() => {
      void queryClient.invalidateQueries({ queryKey: uploadedImagesQueryOptions().queryKey });
      onCreditsChanged();
    }, [queryClient, onCreditsChanged]),
  );

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 md:py-12 lg:px-8">
      <header className="flex flex-col gap-2">
        <h1 className="text-3xl font-semibold tracking-tight text-balance sm:text-4xl">Custom AI Models</h1>
        <p className="max-w-2xl text-base text-muted-foreground sm:text-lg">
          Upload your selfies and choose 12-20 of them to train a personal AI model that knows your likeness.
        </p>
      </header>

      {/* The task's three steps in order: upload and select side by side on large screens (equal
          heights, no hole), then the training across the full width. */}
      <div className="mt-8 grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <div className="min-w-0 [&>*]:h-full">
          <SelfieUploadCard storedCount={images.data?.length ?? 0} />
        </div>
        <div className="min-w-0 [&>*]:h-full">
          <SelfiePicker images={images} selection={selection} />
        </div>
        <div className="min-w-0 lg:col-span-2">
          <TrainModelCard
            username={username}
            credits={credits}
            selectedIds={selection.selectedIds}
            models={models.data}
            onTrainingStarted={handleTrainingStarted}
          />
        </div>
      </div>

      <div className="mt-6">
        <CustomModelsList models={models} />
      </div>
    </div>
  );
}

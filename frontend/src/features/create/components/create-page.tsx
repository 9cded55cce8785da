import { GENERATION_COST, NUM_OUTPUTS, type Avatar, type CurrentUser, type GenerationJob } from '@likeness/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Sparkles } from 'lucide-react';
import { useEffect, useId, useMemo, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { LowCreditsWarning } from '@/components/low-credits-warning';
import { isApiError, serverMessageOr } from '@/lib/api-client';
import { AVATARS_QUERY_KEY, avatarsQueryOptions } from '@/lib/avatars/get-avatars';
import { useCustomModels, type ListedModel } from '@/lib/custom-models/get-custom-models';
import { isCompletedStatus } from '@/lib/custom-models/model-status';
import { generationJobsQueryOptions } from '@/lib/generation-jobs/get-generation-jobs';
import { useInferenceConfig } from '@/lib/inference/get-inference-config';
import { takeSelectedPrompt } from '@/lib/selected-prompt';
import { useGenerateAvatar } from '../api/generate-avatar';
import { randomLook, type CustomizerSelection } from '../data/customizer-options';
import { useGenerationJob } from '../hooks/use-generation-job';
import { buildPrompt, hasSelections, NEGATIVE_PROMPT } from '../utils/build-prompt';
import { generationMessages, generationPreCheck } from '../utils/generation-checks';
import { insertTriggerWord } from '../utils/trigger-word';
import { CharacterCustomizer } from './character-customizer';
import { GenerationOverlay, type OverlayState } from './generation-overlay';
import { LocalPreviewNotice } from './local-preview-notice';
import { ModelPicker } from './model-picker';
import { NumOutputsPicker } from './num-outputs-picker';
import { PROMPT_INPUT_ID, PromptInput } from './prompt-input';
import { ProTips } from './pro-tips';

interface CreatePageProps {
  /** The signed-in user (null only if the session ended meanwhile). */
  user: Pick<CurrentUser, 'username' | 'credits'> | null;
  /** Refreshes the user's balance: a run holds 5 credits when it starts and gives them back if it fails. */
  onCreditsChanged: () => void;
}

/** SPEC §4: only completed (or ready) models with a trigger word can generate, or be @-mentioned. */
function canGenerate(model: ListedModel): boolean {
  return isCompletedStatus(model.status) && model.triggerWord.trim() !== '';
}

function fail(description: string): void {
  toast({ variant: 'destructive', title: 'Generation failed', description });
}

/**
 * /create: choose a model, build or write a prompt and generate 1-4 photos, followed by a
 * progress overlay until the job completes (SPEC §2, §4).
 */
export function CreatePage({ user, onCreditsChanged }: CreatePageProps) {
  const headingId = useId();
  const queryClient = useQueryClient();
  const models = useCustomModels();
  const config = useInferenceConfig();
  const generate = useGenerateAvatar();
  const credits = user?.credits ?? 0;

  const usable = useMemo(() => (models.data ?? []).filter(canGenerate), [models.data]);
  const knownWords = useMemo(() => (models.data ?? []).map((model) => model.triggerWord), [models.data]);

  const [modelId, setModelId] = useState<number | null>(null);
  const [preselected, setPreselected] = useState(false);
  const [numOutputs, setNumOutputs] = useState<number>(NUM_OUTPUTS.default);
  const [selection, setSelection] = useState<CustomizerSelection>({});
  // A prompt chosen in the scene explorer starts the prompt, once; the model's trigger word goes in front of it below.
  const [prompt, setPrompt] = useState(() => takeSelectedPrompt() ?? '');
  const [jobId, setJobId] = useState<string | null>(null);
  // When the current run was asked for, for the waiting screen's elapsed time.
  const [startedAt, setStartedAt] = useState<number | null>(null);
  const [showResult, setShowResult] = useState(false);

  // A model that went away (deleted elsewhere) is no longer selected.
  const model = usable.find((candidate) => candidate.id === modelId) ?? null;

  // The newest ready model is chosen when the list arrives, its trigger word starting the prompt
  // (quietly: the user did nothing yet).
  const newest = usable[0];
  if (!preselected && newest) {
    setPreselected(true);
    setModelId(newest.id);
    setPrompt((current) => insertTriggerWord(current, newest.triggerWord, knownWords).prompt);
  }

  const triggerWord = model?.triggerWord ?? user?.username ?? '';

  const { job, isPolling } = useGenerationJob(jobId, {
    onCompleted: (job) => finish(job),
    onFailed: (job) => {
      fail(job.failureReason || generationMessages.jobFailed);
      refreshAfterJob();
    },
    onError: (error) => fail(serverMessageOr(error, error.message || generationMessages.startFailed)),
    onTimedOut: () => {
      toast({
        title: 'Still working',
        description: 'Your avatar is taking longer than usual. It will appear in your gallery when it is ready.',
      });
      void queryClient.invalidateQueries({ queryKey: generationJobsQueryOptions().queryKey });
    },
  });
  const busy = generate.isPending || isPolling;
  const runAvatars = useRunAvatars(job?.avatarIds ?? []);

  const overlay: OverlayState = busy ? 'generating' : showResult ? 'success' : 'hidden';

  function refreshAfterJob() {
    void queryClient.invalidateQueries({ queryKey: generationJobsQueryOptions().queryKey });
    onCreditsChanged();
  }

  function finish(job: GenerationJob) {
    const count = job.avatarIds.length;
    toast({
      title: 'Avatar ready!',
      description:
        count > 0
          ? `${count} new ${count === 1 ? 'avatar is' : 'avatars are'} in your gallery.`
          : 'Your new avatars are in your gallery.',
    });
    void queryClient.invalidateQueries({ queryKey: AVATARS_QUERY_KEY });
    refreshAfterJob();
    // The result is shown and the prompt kept: SPEC §4's reset to the trigger word waits until
    // the person starts a new photo (issue 16).
    setShowResult(true);
  }

  function focusPrompt() {
    document.getElementById(PROMPT_INPUT_ID)?.focus();
  }

  function usePromptAgain() {
    setShowResult(false);
    focusPrompt();
  }

  /** SPEC §4's reset: the prompt starts again from the model's trigger word, and the look goes too. */
  function startNew() {
    setShowResult(false);
    setSelection({});
    setPrompt(model ? `${model.triggerWord} ` : '');
    focusPrompt();
  }

  function selectModel(id: number) {
    const next = usable.find((candidate) => candidate.id === id);
    if (!next) return;
    setModelId(id);
    // A prompt built by the customizer is built again with the new word; any other gets SPEC §4's insertion.
    const nextPrompt = hasSelections(selection)
      ? buildPrompt(next.triggerWord, selection)
      : insertTriggerWord(prompt, next.triggerWord, knownWords).prompt;
    if (nextPrompt === prompt) return;
    setPrompt(nextPrompt);
    toast({ title: 'Trigger word added', description: `“${next.triggerWord}” brings your likeness into the photo.` });
  }

  function changeSelection(next: CustomizerSelection) {
    setSelection(next);
    setPrompt(buildPrompt(triggerWord, next));
  }

  function submit() {
    if (busy) return;
    const problem = generationPreCheck({ signedIn: user !== null, credits, modelId: model?.id ?? null, prompt });
    if (problem) return void toast({ variant: 'destructive', ...problem });
    if (!model) return;
    setShowResult(false);
    setStartedAt(Date.now());
    generate.mutate(
      {
        promptText: prompt.trim(),
        customModelId: model.id,
        numOutputs,
        // The customizer's fixed negative prompt goes beside the prompt, not in it.
        ...(hasSelections(selection) ? { negativePrompt: NEGATIVE_PROMPT } : {}),
      },
      {
        onSuccess: (started) => {
          setJobId(started.jobId);
          toast({
            title: 'Generation started',
            description: 'Your avatars are being created. This usually takes under a minute.',
          });
          // The run's credits are held now.
          onCreditsChanged();
        },
        onError: (error) => {
          fail(serverMessageOr(error, generationMessages.startFailed));
          // The balance shown was out of date.
          if (isApiError(error) && error.status === 402) onCreditsChanged();
        },
      },
    );
  }

  const lowOnCredits = credits < GENERATION_COST;
  const canSubmit = !busy && model !== null && prompt.trim() !== '' && !lowOnCredits;

  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-8 sm:px-6 md:py-12 lg:px-8">
      <header className="flex flex-col gap-2">
        <h1 className="text-3xl font-semibold tracking-tight text-balance sm:text-4xl">Create Studio Quality Photos</h1>
        <p className="max-w-2xl text-base text-muted-foreground sm:text-lg">
          Describe a photo or build a look with the customizer. Photos cost {GENERATION_COST} credits each run of{' '}
          {NUM_OUTPUTS.min}-{NUM_OUTPUTS.max} images.
        </p>
      </header>

      <Card aria-labelledby={headingId} role="region" className="mt-8">
        <CardHeader className="pb-4">
          <div className="flex items-start justify-between gap-3">
            <CardTitle as="h2" id={headingId}>
              Prompt &amp; Generation
            </CardTitle>
            <span className="shrink-0 rounded-full bg-primary/10 px-2.5 py-0.5 text-xs font-medium text-primary tabular-nums">
              {GENERATION_COST} credits
            </span>
          </div>
          <CardDescription>
            Your trigger word brings in your likeness; the rest of the prompt sets the scene.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-6">
          {config.data?.provider === 'local' ? <LocalPreviewNotice /> : null}

          <div className="grid gap-5 sm:grid-cols-2">
            <ModelPicker
              models={models}
              usable={usable}
              value={model?.id ?? null}
              onChange={selectModel}
              disabled={busy}
            />
            <NumOutputsPicker value={numOutputs} onChange={setNumOutputs} disabled={busy} />
          </div>

          <CharacterCustomizer
            selection={selection}
            onChange={changeSelection}
            onRandomLook={() => changeSelection(randomLook(selection))}
            disabled={busy}
          />

          <PromptInput value={prompt} onChange={setPrompt} models={usable} onSubmit={submit} disabled={busy} />

          <ProTips />

          <div className="flex flex-col gap-3">
            {lowOnCredits ? (
              <LowCreditsWarning message={generationMessages.lowCreditsWarning} credits={credits} />
            ) : null}
            <Button type="button" variant="brand" size="lg" className="w-full" disabled={!canSubmit} onClick={submit}>
              {busy ? <Spinner /> : <Sparkles aria-hidden="true" />}
              {busy ? 'Generating...' : `Generate (${GENERATION_COST} credits)`}
            </Button>
          </div>
        </CardContent>
      </Card>

      <GenerationOverlay
        state={overlay}
        numOutputs={job?.numOutputs ?? numOutputs}
        stage={job?.stage ?? 'queued'}
        startedAt={startedAt}
        avatars={runAvatars}
        moreBlockedReason={lowOnCredits ? generationMessages.lowCreditsWarning : null}
        onClose={() => setShowResult(false)}
        onUsePromptAgain={usePromptAgain}
        onGenerateMore={submit}
        onStartNew={startNew}
      />
    </div>
  );
}

/**
 * The run's photos as they are saved, in the job's order: the list is fetched again whenever
 * the job names a photo it does not hold yet.
 */
function useRunAvatars(avatarIds: readonly number[]): Avatar[] {
  const queryClient = useQueryClient();
  const avatars = useQuery({ ...avatarsQueryOptions(), enabled: avatarIds.length > 0 });
  const byId = useMemo(() => new Map((avatars.data?.items ?? []).map((avatar) => [avatar.id, avatar])), [avatars.data]);
  const missing = avatarIds.some((id) => !byId.has(id));
  useEffect(() => {
    if (missing) void queryClient.invalidateQueries({ queryKey: AVATARS_QUERY_KEY });
  }, [missing, avatarIds.length, queryClient]);
  return avatarIds.map((id) => byId.get(id)).filter((avatar): avatar is Avatar => avatar !== undefined);
}

import { Check, ChevronLeft, ChevronRight, Copy, Sparkles } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Illustration } from '@/components/ui/illustration';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useCopyText } from '@/hooks/use-copy-text';
import { sceneCategories, type SceneCategory } from '../data/scenes';
import { wrapIndex } from '../utils/wrap-index';

const COPIED_TOAST = { title: 'Prompt copied!' } as const;

interface AvatarSceneExplorerProps {
  /** Called with a scene's prompt once "Use This Prompt" has copied it. */
  onUsePrompt: (prompt: string) => void;
}

/** SPEC §2 Scene Explorers: category tabs, one scene at a time with wrapping arrows, copy or use its prompt. */
export function AvatarSceneExplorer({ onUsePrompt }: AvatarSceneExplorerProps) {
  const [categoryId, setCategoryId] = useState<SceneCategory['id']>('professional');

  return (
    <Tabs value={categoryId} onValueChange={(value) => setCategoryId(value as SceneCategory['id'])}>
      <TabsList className="flex h-auto w-full flex-wrap justify-center gap-1">
        {sceneCategories.map((category) => (
          <TabsTrigger key={category.id} value={category.id} className="h-10 flex-none sm:flex-1">
            {category.label}
          </TabsTrigger>
        ))}
      </TabsList>
      {sceneCategories.map((category) => (
        <TabsContent key={category.id} value={category.id} className="mt-6">
          <CategoryScenes category={category} onUsePrompt={onUsePrompt} />
        </TabsContent>
      ))}
    </Tabs>
  );
}

function CategoryScenes({ category, onUsePrompt }: { category: SceneCategory; onUsePrompt: (prompt: string) => void }) {
  const [index, setIndex] = useState(0);
  const { copied, copy } = useCopyText();
  const { scenes } = category;
  const scene = scenes[index];
  if (!scene) return null;
  const step = (by: number) => setIndex((current) => wrapIndex(current, by, scenes.length));

  async function choosePrompt(prompt: string) {
    if (await copy(prompt, COPIED_TOAST)) onUsePrompt(prompt);
  }

  return (
    <article
      aria-roledescription="carousel"
      aria-label={`${category.label} scenes`}
      className="grid overflow-hidden rounded-3xl border bg-card text-card-foreground shadow-[0_1px_2px_hsl(var(--shadow-color)/0.06),0_16px_40px_-20px_hsl(var(--shadow-color)/0.3)] lg:grid-cols-[3fr_2fr]"
    >
      <div className="relative bg-muted">
        <Illustration
          key={scene.id}
          source={scene.image}
          alt={`Illustration: ${scene.title}`}
          sizes="(min-width: 1024px) 640px, 100vw"
          eager={index === 0}
          className="aspect-[3/2]"
        />
        <div className="absolute inset-x-3 top-1/2 flex -translate-y-1/2 justify-between">
          <Button
            size="icon"
            variant="secondary"
            aria-label="Previous scene"
            className="rounded-full bg-background/85 shadow-md backdrop-blur hover:bg-background"
            onClick={() => step(-1)}
          >
            <ChevronLeft aria-hidden="true" />
          </Button>
          <Button
            size="icon"
            variant="secondary"
            aria-label="Next scene"
            className="rounded-full bg-background/85 shadow-md backdrop-blur hover:bg-background"
            onClick={() => step(1)}
          >
            <ChevronRight aria-hidden="true" />
          </Button>
        </div>
      </div>
      <div className="flex flex-col gap-4 p-6 sm:p-8" aria-live="polite">
        <p className="text-sm font-medium text-primary">
          Scene {index + 1} of {scenes.length}
        </p>
        <div>
          <h3 className="text-2xl font-semibold tracking-tight">{scene.title}</h3>
          <p className="mt-2 text-muted-foreground">{scene.description}</p>
        </div>
        <div className="rounded-xl border bg-muted/50 p-4">
          <p className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">Prompt</p>
          <p className="mt-1.5 font-mono text-sm leading-relaxed [overflow-wrap:anywhere]">{scene.prompt}</p>
        </div>
        <div className="mt-auto flex flex-col gap-2 sm:flex-row">
          <Button variant="outline" onClick={() => void copy(scene.prompt, COPIED_TOAST)}>
            {copied ? <Check className="text-emerald-600" aria-hidden="true" /> : <Copy aria-hidden="true" />}
            {copied ? 'Copied' : 'Copy Prompt'}
          </Button>
          <Button variant="brand" onClick={() => void choosePrompt(scene.prompt)}>
            <Sparkles aria-hidden="true" />
            Use This Prompt
          </Button>
        </div>
      </div>
    </article>
  );
}

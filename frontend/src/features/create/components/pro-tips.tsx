import { GENERATION_COST, NUM_OUTPUTS } from '@likeness/contracts';
import { Lightbulb } from 'lucide-react';
import { CollapsibleSection } from './collapsible-section';

const tips = [
  'Keep your trigger word in the prompt: it is what brings in your likeness. Type @ to insert one.',
  'Describe the setting and the light, e.g. "in a cozy cafe, golden hour lighting".',
  'Name an art style to change the whole look: watercolor, oil painting, anime, pencil sketch...',
  'Say how close the camera is: a close-up shot for a headshot, a full body shot to show the outfit.',
  `One run makes ${NUM_OUTPUTS.min} to ${NUM_OUTPUTS.max} images for the same ${GENERATION_COST} credits, so ${NUM_OUTPUTS.max} gives you the most to choose from.`,
  'Short and specific beats long and vague. Change one thing at a time to see what it does.',
];

/** SPEC §2: a collapsible "Pro Tips" section under the prompt. */
export function ProTips() {
  return (
    <CollapsibleSection title="Pro Tips" icon={Lightbulb} summary="How to get better photos">
      <ul className="grid gap-2 text-sm leading-relaxed text-muted-foreground">
        {tips.map((tip) => (
          <li key={tip} className="flex gap-2">
            <span aria-hidden="true" className="mt-2 size-1.5 shrink-0 rounded-full bg-primary/70" />
            <span>{tip}</span>
          </li>
        ))}
      </ul>
    </CollapsibleSection>
  );
}

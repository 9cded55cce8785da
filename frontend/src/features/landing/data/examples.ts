import { portraitSource, type IllustrationSource } from '@/components/ui/illustration';

export interface Example {
  id: string;
  style: string;
  prompt: string;
  image: IllustrationSource;
}

function example(id: string, style: string, prompt: string): Example {
  return { id, style, prompt, image: portraitSource(id) };
}

/** SPEC §2: the Examples section's six sample cards; the first four are the hero's pictures too. */
export const examples: readonly Example[] = [
  example(
    'professional-headshot',
    'Professional Headshot',
    'professional headshot, tailored navy suit, soft studio lighting, neutral grey backdrop, sharp focus, 85mm lens',
  ),
  example(
    'cyberpunk-neon',
    'Cyberpunk Neon',
    'cyberpunk portrait in a rain-soaked neon city at night, glowing pink and cyan lights, reflective jacket, cinematic',
  ),
  example(
    'fantasy-ranger',
    'Fantasy Ranger',
    'fantasy ranger in an enchanted forest, hooded green cloak, glowing fireflies, golden hour light, detailed illustration',
  ),
  example(
    'oil-painting',
    'Classic Oil Painting',
    'classical oil painting portrait, renaissance style, rich warm tones, dramatic chiaroscuro lighting, gilded frame',
  ),
  example(
    'astronaut',
    'Astronaut',
    'astronaut floating in orbit above a blue planet, reflective helmet visor, stars and nebula behind, photorealistic',
  ),
  example(
    'tropical-sunset',
    'Tropical Sunset',
    'travel photo on a tropical beach at sunset, white linen shirt, palm trees, warm golden light, candid smile',
  ),
];

export const heroExamples = examples.slice(0, 4);

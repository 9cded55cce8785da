import { sceneSource, type IllustrationSource } from '@/components/ui/illustration';

export interface Scene {
  id: string;
  title: string;
  description: string;
  prompt: string;
  image: IllustrationSource;
}

export interface SceneCategory {
  id: 'professional' | 'adventure' | 'fantasy' | 'sports' | 'entertainment';
  label: string;
  scenes: readonly Scene[];
}

function scene(id: string, title: string, description: string, prompt: string): Scene {
  return { id, title, description, prompt, image: sceneSource(id) };
}

/** SPEC §2, §9: five categories of five scenes each. */
export const sceneCategories: readonly SceneCategory[] = [
  {
    id: 'professional',
    label: 'Professional',
    scenes: [
      scene(
        'corporate-headshot',
        'Corporate Headshot',
        'A crisp, confident headshot for LinkedIn, a company page or a speaker bio.',
        'professional corporate headshot, tailored charcoal suit, soft studio lighting, light grey backdrop, sharp focus, 85mm portrait lens',
      ),
      scene(
        'boardroom-leader',
        'Boardroom Leader',
        'Leading the meeting in a glass-walled boardroom high above the city.',
        'executive standing in a modern glass boardroom, city skyline through floor-to-ceiling windows, natural daylight, confident expression, editorial photography',
      ),
      scene(
        'startup-founder',
        'Startup Founder',
        'Relaxed and approachable in a sunny open-plan workspace.',
        'startup founder in a bright open-plan office, casual teal sweater, warm morning light, plants and whiteboards in the background, candid smile',
      ),
      scene(
        'keynote-speaker',
        'Keynote Speaker',
        'On stage under the spotlights, mid-sentence at a big conference.',
        'keynote speaker on a conference stage, purple stage lighting, large audience in soft focus, wireless headset microphone, dynamic pose, event photography',
      ),
      scene(
        'architect-studio',
        'Architect at Work',
        'Surrounded by models and drawings, with the city as the backdrop.',
        'architect in a studio with scale models and blueprints, city view at dusk, orange jacket, warm desk lamp light, documentary style photo',
      ),
    ],
  },
  {
    id: 'adventure',
    label: 'Adventure',
    scenes: [
      scene(
        'mountain-summit',
        'Mountain Summit',
        'Standing on a snowy peak above a sea of clouds.',
        'mountaineer on a snowy mountain summit, red down jacket, clear blue sky, sea of clouds below, golden sunlight, epic wide shot',
      ),
      scene(
        'jungle-explorer',
        'Jungle Explorer',
        'Deep in the rainforest with a wide-brimmed hat and a map.',
        'explorer in a dense tropical jungle, khaki shirt and wide-brimmed hat, shafts of light through the canopy, mist, adventure film still',
      ),
      scene(
        'desert-expedition',
        'Desert Expedition',
        'Crossing golden dunes as the sun sets.',
        'traveller in flowing white robes on golden sand dunes at sunset, long shadows, warm orange sky, cinematic wide angle',
      ),
      scene(
        'deep-sea-diver',
        'Deep Sea Diver',
        'Exploring a coral reef in clear blue water.',
        'scuba diver among colourful coral reefs, clear turquoise water, sun rays from the surface, bubbles, underwater photography',
      ),
      scene(
        'arctic-explorer',
        'Arctic Explorer',
        'Under the northern lights on a frozen expedition.',
        'polar explorer in an orange parka with a fur hood, snowy arctic landscape, green aurora borealis in the night sky, starlight',
      ),
    ],
  },
  {
    id: 'fantasy',
    label: 'Fantasy',
    scenes: [
      scene(
        'elven-ranger',
        'Elven Ranger',
        'A guardian of an enchanted forest full of fireflies.',
        'elven ranger in an enchanted forest, long flowing hair, green leather armour, glowing fireflies, golden hour light, fantasy illustration',
      ),
      scene(
        'arcane-wizard',
        'Arcane Wizard',
        'A hooded mage before a moonlit tower.',
        'powerful wizard in deep purple robes, glowing runes in the air, moonlit castle tower behind, magical particles, dramatic fantasy art',
      ),
      scene(
        'dragon-rider',
        'Dragon Rider',
        'Ready for flight among volcanic peaks.',
        'dragon rider in dark armour on a volcanic mountain ridge, fiery sky, dragon wings in the background, heroic pose, epic fantasy painting',
      ),
      scene(
        'starship-captain',
        'Starship Captain',
        'In command on the bridge, a planet glowing outside.',
        'starship captain in a blue uniform on the bridge of a spaceship, purple planet through the viewport, holographic displays, sci-fi movie still',
      ),
      scene(
        'royal-monarch',
        'Royal Monarch',
        'Crowned and regal in front of the castle at twilight.',
        'regal monarch wearing a golden crown and a purple velvet cape, castle at twilight behind, soft rim light, renaissance portrait style',
      ),
    ],
  },
  {
    id: 'sports',
    label: 'Sports',
    scenes: [
      scene(
        'marathon-finish',
        'Marathon Finish',
        'Crossing the line in the middle of the city.',
        'marathon runner crossing the finish line in a city street, red running vest, cheering crowd, motion blur, sports photography',
      ),
      scene(
        'court-champion',
        'Court Champion',
        'Under the arena lights on a basketball court.',
        'basketball player on an indoor court under arena lights, purple jersey, ball in hand, crowd in soft focus, dramatic sports portrait',
      ),
      scene(
        'pro-surfer',
        'Pro Surfer',
        'Catching a perfect wave on a bright morning.',
        'surfer riding a big turquoise wave, sunny morning, spray in the air, wetsuit, action shot from the water, high shutter speed',
      ),
      scene(
        'stadium-striker',
        'Stadium Striker',
        'The star of the match under the floodlights.',
        'football striker in a white kit on a green pitch, stadium floodlights at night, celebrating a goal, sports magazine cover photo',
      ),
      scene(
        'mountain-biker',
        'Mountain Biker',
        'Ripping down a mountain trail in the summer sun.',
        'mountain biker with a helmet on an alpine trail, summer meadows and peaks, dust in the air, action sports photography',
      ),
    ],
  },
  {
    id: 'entertainment',
    label: 'Entertainment',
    scenes: [
      scene(
        'rock-star',
        'Rock Star',
        'Owning the stage in front of a roaring crowd.',
        'rock star performing on stage with an electric guitar, amber spotlights, haze, cheering crowd silhouettes, concert photography',
      ),
      scene(
        'red-carpet',
        'Red Carpet Premiere',
        'Dressed up for a glamorous film premiere.',
        'celebrity on the red carpet at a film premiere, black tie outfit, camera flashes, velvet ropes, glamorous evening light',
      ),
      scene(
        'film-noir',
        'Film Noir Detective',
        'A moody black-and-white scene from a 1940s thriller.',
        'film noir detective in a fedora and trench coat, rainy city street at night, black and white, hard shadows, 1940s movie still',
      ),
      scene(
        'festival-dj',
        'Festival DJ',
        'Behind the decks at a neon-lit music festival.',
        'DJ performing at a music festival at night, neon pink and cyan lights, lasers, crowd with raised hands, vibrant party photography',
      ),
      scene(
        'magazine-cover',
        'Magazine Cover',
        'A glossy fashion portrait fit for a cover.',
        'high fashion magazine cover portrait, pink studio backdrop, beauty lighting, elegant outfit, glossy editorial look',
      ),
    ],
  },
];

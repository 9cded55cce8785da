import { createHash } from 'node:crypto';
import sharp, { type Sharp } from 'sharp';

export const PREVIEW_SIZE = 1024;

export type ArtStyle =
  | 'watercolor'
  | 'oil-painting'
  | 'anime'
  | 'pencil-sketch'
  | 'black-and-white'
  | 'pop-art'
  | 'cyberpunk'
  | 'vintage'
  | 'negative'
  | 'stencil';
export type Lighting = 'golden-hour' | 'studio' | 'neon' | 'moody' | 'soft';
export type ShotType = 'close-up' | 'full-body' | 'portrait';

/** What the words of a prompt do to a local preview. */
export interface Treatment {
  style?: ArtStyle;
  lighting?: Lighting;
  shot: ShotType;
}

/** First match wins, so the more specific phrases come first. */
const STYLE_WORDS: ReadonlyArray<[RegExp, ArtStyle]> = [
  [/\bwater\s?colou?r/, 'watercolor'],
  [/\boil\s+paint/, 'oil-painting'],
  [/\b(anime|manga|cartoon|comic)/, 'anime'],
  [/\b(pencil|sketch|charcoal|graphite)/, 'pencil-sketch'],
  [/\b(black\s+and\s+white|b&w|monochrome|noir)/, 'black-and-white'],
  [/\bpop\s*art|warhol/, 'pop-art'],
  [/\b(cyberpunk|synthwave|vaporwave|neon)/, 'cyberpunk'],
  [/\b(vintage|sepia|retro|polaroid)/, 'vintage'],
  [/\b(negative|x-ray|inverted)/, 'negative'],
  [/\b(stencil|linocut|woodcut)/, 'stencil'],
];

const LIGHTING_WORDS: ReadonlyArray<[RegExp, Lighting]> = [
  [/\b(golden\s+hour|sunset|sunrise|warm\s+light)/, 'golden-hour'],
  [/\bstudio/, 'studio'],
  [/\bneon/, 'neon'],
  [/\b(moody|low[\s-]key|dramatic|dark)/, 'moody'],
  [/\b(soft|diffused|natural\s+light)/, 'soft'],
];

const SHOT_WORDS: ReadonlyArray<[RegExp, ShotType]> = [
  [/\b(close[\s-]?up|headshot|macro)/, 'close-up'],
  [/\b(full[\s-]body|wide|long\s+shot|establishing)/, 'full-body'],
  [/\bportrait/, 'portrait'],
];

const firstMatch = <T>(text: string, table: ReadonlyArray<[RegExp, T]>): T | undefined =>
  table.find(([pattern]) => pattern.test(text))?.[1];

/** Only the positive part of a prompt counts: SPEC.md §5 appends a negative prompt after a blank line. */
export function treatmentFor(prompt: string): Treatment {
  const text = (prompt.split(/\n\s*\n/)[0] ?? '').toLowerCase();
  const style = firstMatch(text, STYLE_WORDS);
  const lighting = firstMatch(text, LIGHTING_WORDS);
  return {
    ...(style ? { style } : {}),
    ...(lighting ? { lighting } : {}),
    shot: firstMatch(text, SHOT_WORDS) ?? 'portrait',
  };
}

/** Which of `count` selfies output `index` starts from: the same prompt and seed always pick the same. */
export function selfieIndex(prompt: string, index: number, count: number, seed?: number): number {
  const digest = createHash('sha256')
    .update(`${seed ?? ''}\n${index}\n${prompt}`)
    .digest();
  return digest.readUInt32BE(0) % count;
}

/** Decoded pixels between steps (each step is a pipeline of its own). */
export interface Raw {
  data: Buffer;
  info: { width: number; height: number; channels: 1 | 2 | 3 | 4 };
}

const fromRaw = (raw: Raw) =>
  sharp(raw.data, { raw: { width: raw.info.width, height: raw.info.height, channels: raw.info.channels } });

/** sRGB without alpha, so every step sees three channels. */
async function toRaw(image: Sharp): Promise<Raw> {
  const { data, info } = await image.toColourspace('srgb').removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, info: { width: info.width, height: info.height, channels: info.channels } };
}

/** Sharp applies the operations of one pipeline in its own order, so each step is a pipeline of its own. */
const step = (raw: Raw, operation: (image: Sharp) => Sharp): Promise<Raw> => toRaw(operation(fromRaw(raw)));

/** Flat areas of colour, through a palette PNG without dithering (native, unlike a loop over the pixels). */
async function posterise(raw: Raw, colours: number): Promise<Raw> {
  const flat = await fromRaw(raw).png({ palette: true, colours, dither: 0, effort: 1 }).toBuffer();
  return toRaw(sharp(flat));
}

/** The selfie cropped and scaled for the shot: the expensive, prompt-independent first step (cacheable). */
export async function frameSelfie(selfie: Buffer, shot: ShotType): Promise<Raw> {
  const source = sharp(selfie).rotate();
  if (shot === 'close-up') {
    // Tight: the middle 55 % of the square crop, enlarged.
    const square = await source.resize(PREVIEW_SIZE, PREVIEW_SIZE, { fit: 'cover', position: 'attention' }).toBuffer();
    const side = Math.round(PREVIEW_SIZE * 0.55);
    const offset = Math.round((PREVIEW_SIZE - side) / 2);
    return toRaw(
      sharp(square)
        .extract({ left: offset, top: Math.round(offset * 0.7), width: side, height: side })
        .resize(PREVIEW_SIZE, PREVIEW_SIZE),
    );
  }
  if (shot === 'full-body') {
    // Zoomed out: the subject small and whole over a blurred, dimmed copy of itself.
    // Blurring a small copy and enlarging it is as soft as a wide blur and far cheaper.
    const small = await source
      .clone()
      .resize(96, 96, { fit: 'cover' })
      .blur(3)
      .modulate({ brightness: 0.7 })
      .toBuffer();
    const background = await sharp(small).resize(PREVIEW_SIZE, PREVIEW_SIZE).toBuffer();
    const subjectSide = Math.round(PREVIEW_SIZE * 0.55);
    const subject = await source.clone().resize(subjectSide, subjectSide, { fit: 'inside' }).toBuffer({
      resolveWithObject: true,
    });
    return toRaw(
      sharp(background).composite([
        {
          input: subject.data,
          left: Math.round((PREVIEW_SIZE - subject.info.width) / 2),
          top: Math.round(PREVIEW_SIZE - subject.info.height - PREVIEW_SIZE * 0.08),
        },
      ]),
    );
  }
  return toRaw(source.resize(PREVIEW_SIZE, PREVIEW_SIZE, { fit: 'cover', position: 'attention' }));
}

const LIGHTING: Record<Lighting, (image: Sharp) => Sharp> = {
  'golden-hour': (image) => image.linear([1.15, 1.02, 0.78], [18, 6, -12]).modulate({ saturation: 1.15 }),
  studio: (image) => image.linear(1.25, -20).modulate({ brightness: 1.1 }),
  neon: (image) => image.linear([1.2, 0.75, 1.3], [25, -10, 35]),
  moody: (image) => image.modulate({ brightness: 0.6 }).linear(1.3, -25),
  soft: (image) => image.blur(1.2).modulate({ brightness: 1.06, saturation: 0.9 }),
};

async function applyStyle(raw: Raw, style: ArtStyle): Promise<Raw> {
  switch (style) {
    case 'watercolor':
      return step(await posterise(await step(raw, (image) => image.blur(3)), 16), (image) =>
        image.modulate({ brightness: 1.12, saturation: 1.35 }).blur(1.5),
      );
    case 'oil-painting':
      return step(await posterise(await step(raw, (image) => image.blur(2.5)), 24), (image) =>
        image.modulate({ saturation: 1.3 }).sharpen({ sigma: 1.2, m2: 3 }),
      );
    case 'anime':
      return step(await posterise(await step(raw, (image) => image.blur(1.5)), 12), (image) =>
        image.modulate({ saturation: 1.5 }).sharpen({ sigma: 1.5, m2: 4 }),
      );
    case 'pencil-sketch':
      return step(raw, (image) =>
        image.greyscale().normalise().sharpen({ sigma: 1.5, m2: 6 }).linear(1.4, -10).modulate({ brightness: 1.15 }),
      );
    case 'black-and-white':
      return step(raw, (image) => image.greyscale().normalise().linear(1.2, -15));
    case 'pop-art':
      return step(await posterise(raw, 8), (image) => image.modulate({ saturation: 2.2 }).linear(1.3, -20));
    case 'cyberpunk':
      return step(raw, (image) => image.modulate({ hue: 200, saturation: 1.7 }).linear(1.3, -20).sharpen());
    case 'vintage':
      return step(raw, (image) => image.tint({ r: 112, g: 76, b: 38 }).linear(0.85, 25));
    case 'negative':
      return step(raw, (image) => image.negate({ alpha: false }));
    case 'stencil':
      return step(raw, (image) => image.greyscale().threshold(128));
  }
}

/** A dark box with PREVIEW in white, bottom right, so nobody mistakes the image for an AI portrait. */
export const PREVIEW_LABEL = { width: 220, height: 64, margin: 24 } as const;

const label = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" width="${PREVIEW_LABEL.width}" height="${PREVIEW_LABEL.height}">` +
    `<rect width="100%" height="100%" rx="10" fill="#000" fill-opacity="0.85"/>` +
    `<text x="50%" y="50%" dy="0.35em" text-anchor="middle" font-family="sans-serif" font-size="34" font-weight="700" fill="#fff" letter-spacing="4">PREVIEW</text>` +
    `</svg>`,
);

/**
 * A 1024×1024 JPEG from one selfie and the prompt's treatment. JPEG, not PNG: it encodes in a
 * fifth of the time, and media re-encodes what it keeps anyway.
 */
export async function renderPreview(selfie: Buffer, treatment: Treatment): Promise<Buffer> {
  return renderFramed(await frameSelfie(selfie, treatment.shot), treatment);
}

/** The rest of the preview from an already framed selfie (see {@link frameSelfie}). */
export async function renderFramed(framed: Raw, treatment: Treatment): Promise<Buffer> {
  let raw = framed;
  if (treatment.lighting) raw = await step(raw, LIGHTING[treatment.lighting]);
  if (treatment.style) raw = await applyStyle(raw, treatment.style);
  const position = PREVIEW_SIZE - PREVIEW_LABEL.margin;
  return fromRaw(raw)
    .composite([
      {
        input: label,
        left: position - PREVIEW_LABEL.width,
        top: position - PREVIEW_LABEL.height,
      },
    ])
    .jpeg({ quality: 92 })
    .toBuffer();
}

import { cn } from '@/lib/cn';

/** A picture drawn for the public pages (scripts/make-public-images.mjs), in AVIF and WebP at two widths. */
export interface IllustrationSource {
  /** The files' path without width and extension, e.g. `/images/examples/astronaut`. */
  path: string;
  widths: readonly [number, number];
  /** The larger file's size: it fixes the aspect ratio, so nothing moves when it loads. */
  width: number;
  height: number;
}

interface IllustrationProps {
  source: IllustrationSource;
  alt: string;
  /** The width the image is shown at, for the browser to pick a file (`sizes`). */
  sizes: string;
  /** Above the fold: fetched at once and first. Otherwise fetched as it nears the viewport. */
  eager?: boolean;
  className?: string;
}

function srcSet({ path, widths }: IllustrationSource, extension: 'avif' | 'webp'): string {
  return widths.map((width) => `${path}-${width}.${extension} ${width}w`).join(', ');
}

export function Illustration({ source, alt, sizes, eager = false, className }: IllustrationProps) {
  return (
    <picture>
      <source type="image/avif" srcSet={srcSet(source, 'avif')} sizes={sizes} />
      <source type="image/webp" srcSet={srcSet(source, 'webp')} sizes={sizes} />
      <img
        src={`${source.path}-${source.widths[0]}.webp`}
        alt={alt}
        width={source.width}
        height={source.height}
        loading={eager ? 'eager' : 'lazy'}
        fetchPriority={eager ? 'high' : 'auto'}
        decoding="async"
        className={cn('h-auto w-full object-cover', className)}
      />
    </picture>
  );
}

/** The landing page's portrait cards (4:5). */
export function portraitSource(name: string): IllustrationSource {
  return { path: `/images/examples/${name}`, widths: [320, 640], width: 640, height: 800 };
}

/** The scene explorer's scenes (3:2). */
export function sceneSource(name: string): IllustrationSource {
  return { path: `/images/scenes/${name}`, widths: [480, 960], width: 960, height: 640 };
}

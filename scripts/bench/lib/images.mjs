// Images the benchmarks upload.
import sharp from 'sharp';

/** A selfie-like JPEG: smooth colour and a face-sized disc, different for each seed (the generator draws on it). */
export const selfie = (seed) =>
  sharp({
    create: { width: 640, height: 640, channels: 3, background: { r: (seed * 37) % 256, g: 120, b: 160 } },
  })
    .composite([
      {
        input: Buffer.from(
          `<svg width="640" height="640"><circle cx="320" cy="300" r="${150 + seed}" fill="#e0b090"/></svg>`,
        ),
      },
    ])
    .jpeg()
    .toBuffer();

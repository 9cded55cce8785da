// Draws the app's install icons from the logo (public/favicon.svg): `node frontend/scripts/generate-icons.mjs`.
// The PNGs are checked in; run this again whenever the logo changes.
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const publicDir = fileURLToPath(new URL('../public/', import.meta.url));
const logo = readFileSync(new URL('favicon.svg', `file://${publicDir}`), 'utf8');

/** The logo's glyph on a full-bleed gradient, kept inside the maskable safe zone (the inner 80 %). */
function maskableSvg() {
  const glyph = logo.match(/<path[\s\S]*?\/>\s*<circle[\s\S]*?\/>/)?.[0];
  if (!glyph) throw new Error('favicon.svg no longer has the glyph this script expects');
  const defs = logo.match(/<defs>[\s\S]*?<\/defs>/)?.[0] ?? '';
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">${defs}
  <rect width="64" height="64" fill="url(#g)"/>
  <g transform="translate(32 32) scale(0.72) translate(-32 -30)">${glyph}</g>
</svg>`;
}

const icons = [
  { file: 'icons/icon-192.png', size: 192, svg: logo },
  { file: 'icons/icon-512.png', size: 512, svg: logo },
  { file: 'icons/maskable-192.png', size: 192, svg: maskableSvg() },
  { file: 'icons/maskable-512.png', size: 512, svg: maskableSvg() },
  { file: 'icons/apple-touch-icon.png', size: 180, svg: maskableSvg() },
];

await mkdir(new URL('icons/', `file://${publicDir}`), { recursive: true });
for (const { file, size, svg } of icons) {
  await sharp(Buffer.from(svg), { density: (72 * size) / 64 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(`${publicDir}${file}`);
  console.log(`wrote public/${file}`);
}

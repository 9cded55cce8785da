#!/usr/bin/env node
// Draws the landing page's example images and the scene explorer's scenes as flat vector
// illustrations (a stylised person in a themed setting) and writes them as AVIF and WebP at two
// widths under frontend/public/images. Run after changing a picture: node scripts/make-public-images.mjs
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'frontend/public/images');

/** Portrait cards (4:5) for the landing page, landscape scenes (3:2) for the explorer. */
const SHAPES = {
  portrait: { width: 400, height: 500, widths: [320, 640] },
  landscape: { width: 600, height: 400, widths: [480, 960] },
};

/** A small deterministic random source, so a picture is the same on every run. */
function seeded(text) {
  let state = [...text].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) >>> 0, 2166136261);
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const range = (count, make) => Array.from({ length: count }, (_, index) => make(index)).join('');

function skyGradient(id, [top, bottom]) {
  return `<linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/></linearGradient>`;
}

/** Settings behind the person, drawn into a `width` × `height` box. */
const backdrops = {
  studio: ({ width, height, accent }) =>
    `<circle cx="${width / 2}" cy="${height * 0.45}" r="${height * 0.42}" fill="${accent}" opacity="0.35"/>`,
  city: ({ width, height, accent, random }) =>
    range(9, (index) => {
      const w = width / 9;
      const h = height * (0.35 + random() * 0.4);
      const x = index * w;
      const windows = range(6, (row) =>
        random() > 0.45
          ? `<rect x="${x + w * 0.25}" y="${height - h + 12 + row * 22}" width="${w * 0.2}" height="9" fill="${accent}" opacity="0.85"/>` +
            `<rect x="${x + w * 0.6}" y="${height - h + 12 + row * 22}" width="${w * 0.2}" height="9" fill="${accent}" opacity="0.6"/>`
          : '',
      );
      return `<rect x="${x + 2}" y="${height - h}" width="${w - 4}" height="${h}" fill="#0b1026" opacity="0.85"/>${windows}`;
    }),
  forest: ({ width, height, accent, random }) =>
    range(8, (index) => {
      const x = (index / 7) * width + (random() - 0.5) * 30;
      const h = height * (0.45 + random() * 0.3);
      return `<polygon points="${x},${height - h} ${x - 45},${height} ${x + 45},${height}" fill="#14532d" opacity="${0.55 + random() * 0.4}"/>`;
    }) +
    range(
      14,
      () =>
        `<circle cx="${random() * width}" cy="${random() * height * 0.8}" r="${2 + random() * 3}" fill="${accent}" opacity="0.9"/>`,
    ),
  frame: ({ width, height, accent }) =>
    `<rect x="10" y="10" width="${width - 20}" height="${height - 20}" fill="none" stroke="${accent}" stroke-width="14"/>` +
    `<rect x="24" y="24" width="${width - 48}" height="${height - 48}" fill="none" stroke="#3b2106" stroke-width="3" opacity="0.6"/>`,
  space: ({ width, height, accent, random }) =>
    range(
      40,
      () =>
        `<circle cx="${random() * width}" cy="${random() * height}" r="${0.6 + random() * 1.8}" fill="#fff" opacity="${0.4 + random() * 0.6}"/>`,
    ) +
    `<circle cx="${width * 0.85}" cy="${height * 0.95}" r="${height * 0.45}" fill="${accent}" opacity="0.9"/>` +
    `<ellipse cx="${width * 0.8}" cy="${height * 0.82}" rx="${height * 0.25}" ry="${height * 0.05}" fill="#ffffff" opacity="0.25"/>`,
  beach: ({ width, height, accent }) =>
    `<circle cx="${width * 0.7}" cy="${height * 0.48}" r="${height * 0.12}" fill="${accent}"/>` +
    `<rect x="0" y="${height * 0.58}" width="${width}" height="${height * 0.42}" fill="#0e7490" opacity="0.75"/>` +
    `<path d="M0 ${height * 0.8} Q ${width / 2} ${height * 0.7} ${width} ${height * 0.82} L ${width} ${height} L 0 ${height} Z" fill="#fcd34d"/>` +
    `<path d="M${width * 0.1} ${height} L ${width * 0.14} ${height * 0.45}" stroke="#3f2a14" stroke-width="8"/>` +
    range(
      5,
      (leaf) =>
        `<ellipse cx="${width * 0.14}" cy="${height * 0.45}" rx="48" ry="10" fill="#166534" transform="rotate(${leaf * 72 - 20} ${width * 0.14} ${height * 0.45}) translate(40 0)"/>`,
    ),
  mountains: ({ width, height, accent }) =>
    `<circle cx="${width * 0.75}" cy="${height * 0.25}" r="${height * 0.09}" fill="${accent}"/>` +
    `<polygon points="0,${height} ${width * 0.3},${height * 0.35} ${width * 0.6},${height}" fill="#475569"/>` +
    `<polygon points="${width * 0.3},${height * 0.35} ${width * 0.24},${height * 0.46} ${width * 0.36},${height * 0.46}" fill="#f8fafc"/>` +
    `<polygon points="${width * 0.35},${height} ${width * 0.72},${height * 0.45} ${width * 1.1},${height}" fill="#334155"/>`,
  waves: ({ width, height, accent }) =>
    range(4, (band) => {
      const y = height * (0.55 + band * 0.12);
      return `<path d="M0 ${y} Q ${width * 0.25} ${y - 25} ${width * 0.5} ${y} T ${width} ${y} L ${width} ${height} L 0 ${height} Z" fill="${accent}" opacity="${0.35 + band * 0.15}"/>`;
    }),
  dunes: ({ width, height, accent }) =>
    `<circle cx="${width * 0.25}" cy="${height * 0.3}" r="${height * 0.1}" fill="#fff7ed"/>` +
    `<path d="M0 ${height * 0.7} Q ${width * 0.3} ${height * 0.5} ${width * 0.6} ${height * 0.72} T ${width} ${height * 0.65} L ${width} ${height} L 0 ${height} Z" fill="${accent}"/>` +
    `<path d="M0 ${height * 0.85} Q ${width * 0.5} ${height * 0.7} ${width} ${height * 0.88} L ${width} ${height} L 0 ${height} Z" fill="#b45309" opacity="0.7"/>`,
  underwater: ({ width, height, accent, random }) =>
    range(
      18,
      () =>
        `<circle cx="${random() * width}" cy="${random() * height}" r="${2 + random() * 6}" fill="none" stroke="#e0f2fe" stroke-width="1.5" opacity="0.7"/>`,
    ) +
    range(
      5,
      (index) =>
        `<path d="M${(index + 0.5) * (width / 5)} ${height} q -14 -60 0 -120 q 14 -40 0 -80" stroke="${accent}" stroke-width="6" fill="none" opacity="0.8"/>`,
    ),
  aurora: ({ width, height, accent }) =>
    `<path d="M0 ${height * 0.3} C ${width * 0.3} ${height * 0.1}, ${width * 0.6} ${height * 0.45}, ${width} ${height * 0.2}" stroke="${accent}" stroke-width="28" fill="none" opacity="0.55"/>` +
    `<path d="M0 ${height * 0.4} C ${width * 0.4} ${height * 0.2}, ${width * 0.7} ${height * 0.5}, ${width} ${height * 0.3}" stroke="#a78bfa" stroke-width="18" fill="none" opacity="0.45"/>` +
    `<path d="M0 ${height * 0.8} L ${width * 0.3} ${height * 0.62} L ${width * 0.55} ${height * 0.78} L ${width * 0.8} ${height * 0.6} L ${width} ${height * 0.75} L ${width} ${height} L 0 ${height} Z" fill="#f1f5f9"/>`,
  castle: ({ width, height, accent }) =>
    `<circle cx="${width * 0.8}" cy="${height * 0.2}" r="${height * 0.08}" fill="${accent}"/>` +
    `<path d="M${width * 0.05} ${height} V ${height * 0.45} h 30 v -20 h 14 v 20 h 14 v -20 h 14 v 20 h 20 V ${height * 0.62} H ${width * 0.3} V ${height * 0.38} h 22 l 18 -40 l 18 40 h 22 V ${height} Z" fill="#1e1b4b" opacity="0.9"/>`,
  stage: ({ width, height, accent, random }) =>
    range(3, (index) => {
      const x = (index + 0.5) * (width / 3);
      return `<polygon points="${x - 8},0 ${x + 8},0 ${x + 90},${height} ${x - 90},${height}" fill="${accent}" opacity="0.22"/>`;
    }) +
    range(
      16,
      (index) =>
        `<circle cx="${(index + 0.5) * (width / 16)}" cy="${height - 6 + random() * 6}" r="${14 + random() * 5}" fill="#0a0a0a" opacity="0.9"/>`,
    ),
  stadium: ({ width, height, accent }) =>
    range(2, (side) => {
      const x = side ? width * 0.88 : width * 0.12;
      return (
        `<rect x="${x - 3}" y="${height * 0.1}" width="6" height="${height * 0.4}" fill="#334155"/>` +
        `<rect x="${x - 22}" y="${height * 0.06}" width="44" height="16" rx="3" fill="${accent}"/>`
      );
    }) +
    `<rect x="0" y="${height * 0.68}" width="${width}" height="${height * 0.32}" fill="#15803d"/>` +
    `<path d="M0 ${height * 0.82} H ${width}" stroke="#f0fdf4" stroke-width="3" opacity="0.7"/>`,
  court: ({ width, height, accent }) =>
    `<rect x="0" y="${height * 0.7}" width="${width}" height="${height * 0.3}" fill="${accent}"/>` +
    `<ellipse cx="${width / 2}" cy="${height * 0.85}" rx="${width * 0.3}" ry="${height * 0.08}" fill="none" stroke="#fff" stroke-width="3" opacity="0.7"/>` +
    `<rect x="${width * 0.82}" y="${height * 0.18}" width="${width * 0.12}" height="${height * 0.09}" fill="none" stroke="#fff" stroke-width="3"/>` +
    `<circle cx="${width * 0.88}" cy="${height * 0.3}" r="12" fill="none" stroke="#f97316" stroke-width="3"/>`,
  office: ({ width, height, accent }) =>
    range(4, (column) =>
      range(
        3,
        (row) =>
          `<rect x="${20 + (column * (width - 40)) / 4}" y="${20 + row * height * 0.22}" width="${(width - 40) / 4 - 10}" height="${height * 0.2}" fill="${accent}" opacity="0.35"/>`,
      ),
    ) + `<rect x="0" y="${height * 0.72}" width="${width}" height="${height * 0.28}" fill="#1f2937" opacity="0.35"/>`,
};

const hairStyles = {
  short: (hair) =>
    `<path d="M-50 100 C -60 8, 60 8, 50 100 C 46 72, 30 62, 0 64 C -30 62, -46 72, -50 100 Z" fill="${hair}"/>`,
  long: (hair) =>
    `<path d="M-56 190 C -70 110, -60 30, 0 34 C 60 30, 70 110, 56 190 L 40 190 C 50 130, 44 70, 0 58 C -44 70, -50 130, -40 190 Z" fill="${hair}"/>`,
  bun: (hair) =>
    `<circle cx="0" cy="28" r="22" fill="${hair}"/><path d="M-50 90 C -52 36, 52 36, 50 90 C 40 58, -40 58, -50 90 Z" fill="${hair}"/>`,
  curly: (hair) =>
    range(
      9,
      (index) =>
        `<circle cx="${-44 + index * 11}" cy="${52 - Math.sin((index / 8) * Math.PI) * 18}" r="17" fill="${hair}"/>`,
    ),
  hood: (hair) =>
    `<path d="M-72 200 C -80 60, -40 20, 0 20 C 40 20, 80 60, 72 200 L 52 200 C 62 110, 50 60, 0 56 C -50 60, -62 110, -52 200 Z" fill="${hair}"/>`,
  helmet: (hair) =>
    `<circle cx="0" cy="100" r="72" fill="#e0f2fe" fill-opacity="0.22" stroke="${hair}" stroke-width="10"/>` +
    `<path d="M-46 62 A 56 56 0 0 1 6 40" stroke="#ffffff" stroke-width="7" fill="none" stroke-linecap="round" opacity="0.7"/>`,
  hat: (hair) =>
    `<ellipse cx="0" cy="52" rx="78" ry="14" fill="${hair}"/><path d="M-44 52 C -44 8, 44 8, 44 52 Z" fill="${hair}"/>`,
  crown: (hair) =>
    `<path d="M-50 92 C -54 30, 54 30, 50 92 C 44 60, -44 60, -50 92 Z" fill="${hair}"/><path d="M-34 44 L -30 18 L -14 34 L 0 12 L 14 34 L 30 18 L 34 44 Z" fill="#facc15"/>`,
};

function person({ skin, hair, hairStyle, outfit, detail }) {
  const behind = hairStyle === 'long' || hairStyle === 'hood' ? hairStyles[hairStyle](hair) : '';
  const front = behind || hairStyle === 'helmet' ? '' : hairStyles[hairStyle](hair);
  const collar = {
    suit: `<path d="M-30 172 L 0 240 L 30 172 Z" fill="#f8fafc"/><path d="M-7 182 L 7 182 L 5 232 L 0 240 L -5 232 Z" fill="${detail}"/>`,
    scarf: `<path d="M-44 176 C -20 196, 20 196, 44 176 L 40 196 C 20 214, -20 214, -40 196 Z" fill="${detail}"/>`,
    badge: `<circle cx="52" cy="222" r="11" fill="${detail}"/>`,
    stripe: `<path d="M-100 262 L 100 232" stroke="${detail}" stroke-width="12"/>`,
    plain: '',
  }[outfit.collar];
  const face =
    `<ellipse cx="-17" cy="98" rx="5" ry="6" fill="#1f2937"/><ellipse cx="17" cy="98" rx="5" ry="6" fill="#1f2937"/>` +
    `<path d="M-14 122 Q 0 134 14 122" stroke="#7c2d12" stroke-width="4" fill="none" stroke-linecap="round"/>` +
    `<circle cx="-28" cy="116" r="8" fill="#fb7185" opacity="0.25"/><circle cx="28" cy="116" r="8" fill="#fb7185" opacity="0.25"/>`;
  const head = `<rect x="-17" y="140" width="34" height="44" rx="10" fill="${skin}"/><ellipse cx="0" cy="100" rx="46" ry="56" fill="${skin}"/>${face}`;
  const body = `<path d="M-118 300 C -118 222, -88 182, -36 172 L 36 172 C 88 182, 118 222, 118 300 Z" fill="${outfit.color}"/>${collar}`;
  const helmet = hairStyle === 'helmet' ? hairStyles.helmet(hair) : '';
  return `${behind}${body}${head}${front}${helmet}`;
}

function drawPicture({ id, shape, sky, backdrop, accent, figure }) {
  const { width, height } = SHAPES[shape];
  const random = seeded(id);
  const scale = (height * 0.78) / 300;
  const x = shape === 'landscape' ? width * 0.5 : width / 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
<defs>${skyGradient('sky', sky)}</defs>
<rect width="${width}" height="${height}" fill="url(#sky)"/>
${backdrops[backdrop]({ width, height, accent, random })}
<g transform="translate(${x} ${height - 300 * scale}) scale(${scale})">${person(figure)}</g>
</svg>`;
}

const tones = { light: '#f5d0b5', warm: '#e0a67a', tan: '#c68a5e', deep: '#8d5a3b', rich: '#6b4128' };

/** Each picture: where it goes, its setting, and the person in it. */
const pictures = [
  // Landing page examples (the first four are the hero's too).
  {
    id: 'professional-headshot',
    dir: 'examples',
    shape: 'portrait',
    sky: ['#e2e8f0', '#94a3b8'],
    backdrop: 'studio',
    accent: '#cbd5e1',
    figure: {
      skin: tones.warm,
      hair: '#3f2a1d',
      hairStyle: 'short',
      outfit: { color: '#1e3a8a', collar: 'suit' },
      detail: '#b91c1c',
    },
  },
  {
    id: 'cyberpunk-neon',
    dir: 'examples',
    shape: 'portrait',
    sky: ['#1e1b4b', '#831843'],
    backdrop: 'city',
    accent: '#22d3ee',
    figure: {
      skin: tones.tan,
      hair: '#ec4899',
      hairStyle: 'short',
      outfit: { color: '#0f172a', collar: 'stripe' },
      detail: '#22d3ee',
    },
  },
  {
    id: 'fantasy-ranger',
    dir: 'examples',
    shape: 'portrait',
    sky: ['#064e3b', '#a3e635'],
    backdrop: 'forest',
    accent: '#fef08a',
    figure: {
      skin: tones.light,
      hair: '#166534',
      hairStyle: 'hood',
      outfit: { color: '#15803d', collar: 'badge' },
      detail: '#facc15',
    },
  },
  {
    id: 'oil-painting',
    dir: 'examples',
    shape: 'portrait',
    sky: ['#451a03', '#92400e'],
    backdrop: 'frame',
    accent: '#ca8a04',
    figure: {
      skin: tones.light,
      hair: '#7c2d12',
      hairStyle: 'long',
      outfit: { color: '#7f1d1d', collar: 'scarf' },
      detail: '#fde68a',
    },
  },
  {
    id: 'astronaut',
    dir: 'examples',
    shape: 'portrait',
    sky: ['#020617', '#312e81'],
    backdrop: 'space',
    accent: '#3b82f6',
    figure: {
      skin: tones.deep,
      hair: '#f97316',
      hairStyle: 'helmet',
      outfit: { color: '#e2e8f0', collar: 'badge' },
      detail: '#f97316',
    },
  },
  {
    id: 'tropical-sunset',
    dir: 'examples',
    shape: 'portrait',
    sky: ['#f97316', '#fde68a'],
    backdrop: 'beach',
    accent: '#fff7ed',
    figure: {
      skin: tones.rich,
      hair: '#111827',
      hairStyle: 'curly',
      outfit: { color: '#f8fafc', collar: 'plain' },
      detail: '#0ea5e9',
    },
  },
  // Scene explorer: professional.
  {
    id: 'corporate-headshot',
    dir: 'scenes',
    shape: 'landscape',
    sky: ['#f1f5f9', '#94a3b8'],
    backdrop: 'studio',
    accent: '#e2e8f0',
    figure: {
      skin: tones.light,
      hair: '#1f2937',
      hairStyle: 'short',
      outfit: { color: '#111827', collar: 'suit' },
      detail: '#1d4ed8',
    },
  },
  {
    id: 'boardroom-leader',
    dir: 'scenes',
    shape: 'landscape',
    sky: ['#bae6fd', '#e0f2fe'],
    backdrop: 'office',
    accent: '#0284c7',
    figure: {
      skin: tones.deep,
      hair: '#111827',
      hairStyle: 'bun',
      outfit: { color: '#334155', collar: 'suit' },
      detail: '#9333ea',
    },
  },
  {
    id: 'startup-founder',
    dir: 'scenes',
    shape: 'landscape',
    sky: ['#fef3c7', '#fde68a'],
    backdrop: 'office',
    accent: '#f59e0b',
    figure: {
      skin: tones.tan,
      hair: '#3f2a1d',
      hairStyle: 'curly',
      outfit: { color: '#0f766e', collar: 'plain' },
      detail: '#f8fafc',
    },
  },
  {
    id: 'keynote-speaker',
    dir: 'scenes',
    shape: 'landscape',
    sky: ['#1e1b4b', '#4338ca'],
    backdrop: 'stage',
    accent: '#c4b5fd',
    figure: {
      skin: tones.warm,
      hair: '#78350f',
      hairStyle: 'long',
      outfit: { color: '#0f172a', collar: 'badge' },
      detail: '#a78bfa',
    },
  },
  {
    id: 'architect-studio',
    dir: 'scenes',
    shape: 'landscape',
    sky: ['#ecfeff', '#a5f3fc'],
    backdrop: 'city',
    accent: '#fef9c3',
    figure: {
      skin: tones.rich,
      hair: '#111827',
      hairStyle: 'short',
      outfit: { color: '#f97316', collar: 'plain' },
      detail: '#f8fafc',
    },
  },
  // Adventure.
  {
    id: 'mountain-summit',
    dir: 'scenes',
    shape: 'landscape',
    sky: ['#38bdf8', '#e0f2fe'],
    backdrop: 'mountains',
    accent: '#fde047',
    figure: {
      skin: tones.warm,
      hair: '#dc2626',
      hairStyle: 'hat',
      outfit: { color: '#dc2626', collar: 'scarf' },
      detail: '#facc15',
    },
  },
  {
    id: 'jungle-explorer',
    dir: 'scenes',
    shape: 'landscape',
    sky: ['#14532d', '#86efac'],
    backdrop: 'forest',
    accent: '#bbf7d0',
    figure: {
      skin: tones.tan,
      hair: '#a16207',
      hairStyle: 'hat',
      outfit: { color: '#a16207', collar: 'scarf' },
      detail: '#166534',
    },
  },
  {
    id: 'desert-expedition',
    dir: 'scenes',
    shape: 'landscape',
    sky: ['#fb923c', '#fef3c7'],
    backdrop: 'dunes',
    accent: '#f59e0b',
    figure: {
      skin: tones.deep,
      hair: '#f5f5f4',
      hairStyle: 'hood',
      outfit: { color: '#e7e5e4', collar: 'scarf' },
      detail: '#0369a1',
    },
  },
  {
    id: 'deep-sea-diver',
    dir: 'scenes',
    shape: 'landscape',
    sky: ['#0369a1', '#082f49'],
    backdrop: 'underwater',
    accent: '#f472b6',
    figure: {
      skin: tones.light,
      hair: '#facc15',
      hairStyle: 'helmet',
      outfit: { color: '#0f172a', collar: 'stripe' },
      detail: '#facc15',
    },
  },
  {
    id: 'arctic-explorer',
    dir: 'scenes',
    shape: 'landscape',
    sky: ['#0f172a', '#1e3a8a'],
    backdrop: 'aurora',
    accent: '#34d399',
    figure: {
      skin: tones.warm,
      hair: '#ea580c',
      hairStyle: 'hood',
      outfit: { color: '#ea580c', collar: 'scarf' },
      detail: '#f8fafc',
    },
  },
  // Fantasy.
  {
    id: 'elven-ranger',
    dir: 'scenes',
    shape: 'landscape',
    sky: ['#052e16', '#4d7c0f'],
    backdrop: 'forest',
    accent: '#fde68a',
    figure: {
      skin: tones.light,
      hair: '#fef3c7',
      hairStyle: 'long',
      outfit: { color: '#166534', collar: 'badge' },
      detail: '#fbbf24',
    },
  },
  {
    id: 'arcane-wizard',
    dir: 'scenes',
    shape: 'landscape',
    sky: ['#2e1065', '#7c3aed'],
    backdrop: 'castle',
    accent: '#fef08a',
    figure: {
      skin: tones.tan,
      hair: '#4c1d95',
      hairStyle: 'hood',
      outfit: { color: '#5b21b6', collar: 'badge' },
      detail: '#fde047',
    },
  },
  {
    id: 'dragon-rider',
    dir: 'scenes',
    shape: 'landscape',
    sky: ['#7f1d1d', '#f97316'],
    backdrop: 'mountains',
    accent: '#fef2f2',
    figure: {
      skin: tones.deep,
      hair: '#111827',
      hairStyle: 'curly',
      outfit: { color: '#44403c', collar: 'stripe' },
      detail: '#dc2626',
    },
  },
  {
    id: 'starship-captain',
    dir: 'scenes',
    shape: 'landscape',
    sky: ['#020617', '#1e1b4b'],
    backdrop: 'space',
    accent: '#a855f7',
    figure: {
      skin: tones.warm,
      hair: '#1f2937',
      hairStyle: 'short',
      outfit: { color: '#1d4ed8', collar: 'badge' },
      detail: '#facc15',
    },
  },
  {
    id: 'royal-monarch',
    dir: 'scenes',
    shape: 'landscape',
    sky: ['#312e81', '#be185d'],
    backdrop: 'castle',
    accent: '#fde68a',
    figure: {
      skin: tones.rich,
      hair: '#111827',
      hairStyle: 'crown',
      outfit: { color: '#7e22ce', collar: 'scarf' },
      detail: '#facc15',
    },
  },
  // Sports.
  {
    id: 'marathon-finish',
    dir: 'scenes',
    shape: 'landscape',
    sky: ['#7dd3fc', '#f0f9ff'],
    backdrop: 'city',
    accent: '#fde68a',
    figure: {
      skin: tones.deep,
      hair: '#111827',
      hairStyle: 'short',
      outfit: { color: '#e11d48', collar: 'badge' },
      detail: '#f8fafc',
    },
  },
  {
    id: 'court-champion',
    dir: 'scenes',
    shape: 'landscape',
    sky: ['#0f172a', '#334155'],
    backdrop: 'court',
    accent: '#c2410c',
    figure: {
      skin: tones.rich,
      hair: '#111827',
      hairStyle: 'short',
      outfit: { color: '#7c3aed', collar: 'stripe' },
      detail: '#facc15',
    },
  },
  {
    id: 'pro-surfer',
    dir: 'scenes',
    shape: 'landscape',
    sky: ['#0ea5e9', '#e0f2fe'],
    backdrop: 'waves',
    accent: '#0369a1',
    figure: {
      skin: tones.tan,
      hair: '#fde047',
      hairStyle: 'long',
      outfit: { color: '#0f172a', collar: 'stripe' },
      detail: '#f97316',
    },
  },
  {
    id: 'stadium-striker',
    dir: 'scenes',
    shape: 'landscape',
    sky: ['#020617', '#1e3a8a'],
    backdrop: 'stadium',
    accent: '#fef9c3',
    figure: {
      skin: tones.warm,
      hair: '#451a03',
      hairStyle: 'short',
      outfit: { color: '#f8fafc', collar: 'stripe' },
      detail: '#16a34a',
    },
  },
  {
    id: 'mountain-biker',
    dir: 'scenes',
    shape: 'landscape',
    sky: ['#a3e635', '#ecfccb'],
    backdrop: 'mountains',
    accent: '#fff7ed',
    figure: {
      skin: tones.light,
      hair: '#0ea5e9',
      hairStyle: 'helmet',
      outfit: { color: '#0ea5e9', collar: 'stripe' },
      detail: '#f8fafc',
    },
  },
  // Entertainment.
  {
    id: 'rock-star',
    dir: 'scenes',
    shape: 'landscape',
    sky: ['#0a0a0a', '#7f1d1d'],
    backdrop: 'stage',
    accent: '#fbbf24',
    figure: {
      skin: tones.light,
      hair: '#111827',
      hairStyle: 'long',
      outfit: { color: '#0a0a0a', collar: 'stripe' },
      detail: '#dc2626',
    },
  },
  {
    id: 'red-carpet',
    dir: 'scenes',
    shape: 'landscape',
    sky: ['#450a0a', '#991b1b'],
    backdrop: 'stage',
    accent: '#fef3c7',
    figure: {
      skin: tones.deep,
      hair: '#111827',
      hairStyle: 'bun',
      outfit: { color: '#0f172a', collar: 'suit' },
      detail: '#facc15',
    },
  },
  {
    id: 'film-noir',
    dir: 'scenes',
    shape: 'landscape',
    sky: ['#171717', '#525252'],
    backdrop: 'city',
    accent: '#e5e5e5',
    figure: {
      skin: '#d4d4d4',
      hair: '#262626',
      hairStyle: 'hat',
      outfit: { color: '#404040', collar: 'suit' },
      detail: '#171717',
    },
  },
  {
    id: 'festival-dj',
    dir: 'scenes',
    shape: 'landscape',
    sky: ['#4c1d95', '#db2777'],
    backdrop: 'stage',
    accent: '#22d3ee',
    figure: {
      skin: tones.tan,
      hair: '#22d3ee',
      hairStyle: 'curly',
      outfit: { color: '#111827', collar: 'badge' },
      detail: '#f472b6',
    },
  },
  {
    id: 'magazine-cover',
    dir: 'scenes',
    shape: 'landscape',
    sky: ['#fdf2f8', '#fbcfe8'],
    backdrop: 'studio',
    accent: '#f9a8d4',
    figure: {
      skin: tones.warm,
      hair: '#7c2d12',
      hairStyle: 'long',
      outfit: { color: '#be185d', collar: 'scarf' },
      detail: '#fdf2f8',
    },
  },
];

async function writePicture(picture) {
  const svg = Buffer.from(drawPicture(picture));
  const { widths } = SHAPES[picture.shape];
  const dir = join(OUT, picture.dir);
  await mkdir(dir, { recursive: true });
  await Promise.all(
    widths.flatMap((width) => {
      const base = sharp(svg, { density: 72 * (width / SHAPES[picture.shape].width) * 1.5 }).resize({ width });
      return [
        base
          .clone()
          .avif({ quality: 50, effort: 4 })
          .toFile(join(dir, `${picture.id}-${width}.avif`)),
        base
          .clone()
          .webp({ quality: 72, effort: 6 })
          .toFile(join(dir, `${picture.id}-${width}.webp`)),
      ];
    }),
  );
}

/** The link preview (Open Graph, Twitter card): three of the examples on the brand gradient, 1200 × 630. */
async function writeSharePreview() {
  const [width, height] = [1200, 630];
  const cards = await Promise.all(
    pictures.slice(0, 3).map((picture) =>
      sharp(Buffer.from(drawPicture(picture)))
        .resize({ width: 180 })
        .png()
        .toBuffer(),
    ),
  );
  const text = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
<defs><linearGradient id="brand" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#7c3aed"/><stop offset="1" stop-color="#c026d3"/></linearGradient></defs>
<rect width="${width}" height="${height}" fill="url(#brand)"/>
<text x="64" y="150" font-family="sans-serif" font-size="44" font-weight="700" fill="#ffffff">Likeness</text>
<text x="64" y="250" font-family="sans-serif" font-size="42" font-weight="700" fill="#ffffff">Your selfies,</text>
<text x="64" y="318" font-family="sans-serif" font-size="42" font-weight="700" fill="#ffffff">stunning AI avatars</text>
<text x="64" y="400" font-family="sans-serif" font-size="26" fill="#f5f3ff">Train a personal AI model.</text>
<text x="64" y="440" font-family="sans-serif" font-size="26" fill="#f5f3ff">Pay as you go with credits.</text>
</svg>`;
  await sharp(Buffer.from(text))
    .composite(cards.map((input, index) => ({ input, left: 600 + index * 195, top: 130 + (index % 2) * 60 })))
    .jpeg({ quality: 80, mozjpeg: true })
    .toFile(join(OUT, 'share-preview.jpg'));
}

await rm(OUT, { recursive: true, force: true });
for (const picture of pictures) await writePicture(picture);
await writeSharePreview();
console.log(`${pictures.length} pictures and the share preview written to ${OUT}`);

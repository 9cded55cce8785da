import { useEffect, useState, type CSSProperties } from 'react';
import { usePrefersReducedMotion } from '@/hooks/use-prefers-reduced-motion';

/** SPEC §9: the burst lasts 3 seconds; every piece has landed by then. */
export const CONFETTI_MS = 3_000;

const PIECE_COUNT = 80;
const COLOURS = ['#8b5cf6', '#d946ef', '#f59e0b', '#10b981', '#3b82f6', '#f43f5e', '#facc15'];

interface Piece {
  left: number;
  width: number;
  height: number;
  round: boolean;
  colour: string;
  delay: number;
  duration: number;
  drift: number;
  spin: number;
}

function makePieces(random: () => number = Math.random): Piece[] {
  return Array.from({ length: PIECE_COUNT }, (_, index) => {
    const delay = Math.round(random() * 600);
    return {
      left: random() * 100,
      width: 6 + Math.round(random() * 6),
      height: 8 + Math.round(random() * 8),
      round: random() < 0.3,
      colour: COLOURS[index % COLOURS.length] ?? '#8b5cf6',
      delay,
      // Each piece lands before the burst ends.
      duration: Math.round(1_800 + random() * (CONFETTI_MS - 1_800 - delay)),
      drift: Math.round((random() - 0.5) * 240),
      spin: Math.round((random() - 0.5) * 1_440),
    };
  });
}

/** A one-off burst of falling confetti over its container, drawn with CSS; nothing with reduced motion. */
export function Confetti() {
  const reducedMotion = usePrefersReducedMotion();
  const [pieces] = useState(() => makePieces());
  const [done, setDone] = useState(false);

  useEffect(() => {
    const timer = setTimeout(() => setDone(true), CONFETTI_MS);
    return () => clearTimeout(timer);
  }, []);

  if (reducedMotion || done) return null;
  return (
    <div
      aria-hidden="true"
      data-testid="confetti"
      className="pointer-events-none absolute inset-0 overflow-hidden motion-reduce:hidden"
    >
      {pieces.map((piece, index) => (
        <span
          key={index}
          className="absolute -top-4 block"
          style={
            {
              left: `${piece.left}%`,
              width: piece.width,
              height: piece.round ? piece.width : piece.height,
              borderRadius: piece.round ? '9999px' : '2px',
              backgroundColor: piece.colour,
              animation: `confetti-fall ${piece.duration}ms cubic-bezier(0.25, 0.6, 0.45, 1) ${piece.delay}ms both`,
              '--confetti-drift': `${piece.drift}px`,
              '--confetti-spin': `${piece.spin}deg`,
            } as CSSProperties
          }
        />
      ))}
    </div>
  );
}

/** SPEC §2: the previous and next arrows wrap around, so `step` from either end lands on the other. */
export function wrapIndex(index: number, step: number, length: number): number {
  if (length <= 0) return 0;
  return (((index + step) % length) + length) % length;
}

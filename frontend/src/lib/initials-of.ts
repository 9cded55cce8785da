/** "jane_doe" → "JD", "alice" → "AL": the avatar fallback for a username. */
export function initialsOf(username: string): string {
  const [first = username, second] = username.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const initials = second ? `${first.charAt(0)}${second.charAt(0)}` : first.slice(0, 2);
  return initials.toUpperCase() || '?';
}

/**
 * The navigation state of a page reached by signing out (an account deleted): its guards wait
 * for the session to clear there instead of sending the still-cached user back in.
 */
export const signedOutState = { signedOut: true } as const;

export function isSignedOutArrival(state: unknown): boolean {
  return typeof state === 'object' && state !== null && 'signedOut' in state && state.signedOut === true;
}

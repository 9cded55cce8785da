// Plain numbers, without zod: the public pages' light bundle imports them from here alone
// (frontend/build-tools/public-build.ts).

/** SPEC.md §9 / DESIGN.md §5: what things cost, in credits. */
export const GENERATION_COST = 5;
export const TRAINING_COST = 30;

/** Until billing keeps balances, a new account shows the welcome credits (SPEC.md §9). */
export const WELCOME_CREDITS = 5;

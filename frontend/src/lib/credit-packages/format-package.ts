import { GENERATION_COST, TRAINING_COST, type CreditPackage } from '@likeness/contracts';

const wholeDollars = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 0,
  maximumFractionDigits: 2,
});

/** A package price on its card: "$11", or "$9.99" when it has cents. */
export function formatPrice(dollars: number): string {
  return wholeDollars.format(dollars);
}

/** "1 credit", "125 credits". */
export function formatCredits(credits: number): string {
  return `${credits.toLocaleString('en-US')} ${credits === 1 ? 'credit' : 'credits'}`;
}

/** What a package buys: SPEC §2, floor(credits / 5) generations and floor(credits / 30) trainings. */
export function packagePerks({ credits }: Pick<CreditPackage, 'credits'>) {
  const generations = Math.floor(credits / GENERATION_COST);
  const trainings = Math.floor(credits / TRAINING_COST);
  return {
    generations: `Up to ${generations} avatar ${generations === 1 ? 'generation' : 'generations'}`,
    trainings: `${trainings} model ${trainings > 1 ? 'trainings' : 'training'}`,
  };
}

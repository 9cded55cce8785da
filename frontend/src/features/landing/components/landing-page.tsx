import type { CurrentUser } from '@likeness/contracts';
import { ClosingCta } from './closing-cta';
import { ExamplesSection } from './examples-section';
import { Hero } from './hero';
import { HowItWorks } from './how-it-works';
import { PricingSection } from './pricing-section';
import { TestimonialsSection } from './testimonials-section';

/** `/` (SPEC §2): hero, How It Works, Examples, Pricing, Testimonials, closing call to action. */
export function LandingPage({ user }: { user: CurrentUser | null }) {
  return (
    <>
      <Hero user={user} />
      <HowItWorks />
      <ExamplesSection />
      <PricingSection />
      <TestimonialsSection />
      <ClosingCta />
    </>
  );
}

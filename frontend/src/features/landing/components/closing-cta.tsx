import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';

/** SPEC §2: the closing call to action. */
export function ClosingCta() {
  return (
    <section aria-labelledby="closing-title" className="mx-auto w-full max-w-6xl px-4 pb-20 sm:px-6 lg:px-8">
      <div className="bg-brand-gradient relative isolate overflow-hidden rounded-3xl px-6 py-14 text-center text-white shadow-2xl shadow-fuchsia-500/20 sm:px-12">
        <div
          aria-hidden="true"
          className="absolute -top-24 -right-24 -z-10 size-72 rounded-full bg-white/15 blur-3xl"
        />
        <h2 id="closing-title" className="text-3xl font-semibold tracking-tight text-balance sm:text-4xl">
          Ready to Train Your Personal AI Model?
        </h2>
        <p className="mx-auto mt-4 max-w-xl text-lg text-white/90 text-pretty">
          Every new account starts with free credits. Upload your selfies today and see yourself in a new light.
        </p>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <Button asChild size="lg" className="bg-white text-violet-700 hover:bg-white/90">
            <Link to={paths.auth}>
              Start Creating Now
              <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
          <Button
            asChild
            size="lg"
            variant="outline"
            className="border-white/60 bg-transparent text-white hover:bg-white/10 hover:text-white"
          >
            <Link to={paths.credits}>View Pricing</Link>
          </Button>
        </div>
      </div>
    </section>
  );
}

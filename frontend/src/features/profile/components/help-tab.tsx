import {
  GENERATION_COST,
  NUM_OUTPUTS,
  SELFIE_LIMITS,
  TRAINING_COST,
  TRAINING_IMAGES,
  WELCOME_CREDITS,
} from '@likeness/contracts';
import { ChevronDown, Compass, LifeBuoy, Mail, RotateCcw } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useAppConfig } from '@/lib/app-config/get-app-config';
import { restartTourUrl } from '@/lib/onboarding';

interface Question {
  question: string;
  answer: ReactNode;
}

/** How the product really works, in the words of its rules (the numbers come from the contracts). */
const faq: readonly Question[] = [
  {
    question: 'How do credits work?',
    answer: (
      <>
        A new account starts with {WELCOME_CREDITS} free credits. Training a personal model costs {TRAINING_COST}{' '}
        credits. Generating costs {GENERATION_COST} credits per run, whether it makes {NUM_OUTPUTS.min} or{' '}
        {NUM_OUTPUTS.max} images. Credits never expire, and there is no subscription: buy a pack whenever you need more.
      </>
    ),
  },
  {
    question: 'How long does training take?',
    answer: (
      <>
        About 15-20 minutes. You can leave the page meanwhile; the model shows &ldquo;Ready to use&rdquo; under Models
        when it is done. For a good likeness, train on {TRAINING_IMAGES.min}-{TRAINING_IMAGES.max} selfies with varied
        angles, expressions and lighting (you can keep up to {SELFIE_LIMITS.maxStored}).
      </>
    ),
  },
  {
    question: 'What if a training or a generation fails?',
    answer: (
      <>
        It costs nothing. When work starts, its credits are held; they are charged only when it succeeds, and returned
        to your balance if it fails or is cancelled. The Billing tab lists each hold and what became of it.
      </>
    ),
  },
  {
    question: 'What happens when I delete a selfie, an avatar or a model?',
    answer: (
      <>
        It is gone for good. A deleted avatar&apos;s share link stops working. A deleted model&apos;s trigger word no
        longer works in prompts; the avatars you made with it stay in your gallery. A selfie that a model is training
        on, or a model still training, can be deleted once the training ends.
      </>
    ),
  },
  {
    question: 'What happens when I delete my account?',
    answer: (
      <>
        Your selfies, trained models and avatars are erased and share links stop working. A training still running and
        generations still queued are cancelled at no charge, and credits you have left are lost. Records of payments are
        kept for accounting, no longer linked to you. Your username and e-mail address become free again, and a
        confirmation goes to your e-mail address.
      </>
    ),
  },
  {
    question: 'Can I get a refund?',
    answer: <>Purchases are final and non-refundable, unless the law where you live says otherwise.</>,
  },
];

/** SPEC §2 Help & Support: a short FAQ and "Contact Support" (a mail to the support address). */
export function HelpTab() {
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle as="h2">Frequently asked questions</CardTitle>
          <CardDescription>Quick answers about credits, training and your data.</CardDescription>
        </CardHeader>
        <CardContent>
          <div className="divide-y rounded-xl border">
            {faq.map(({ question, answer }) => (
              <details key={question} className="group">
                <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded-xl p-4 text-sm font-medium transition-colors hover:bg-accent/50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset sm:text-base [&::-webkit-details-marker]:hidden">
                  {question}
                  <ChevronDown
                    aria-hidden="true"
                    className="size-4 shrink-0 text-muted-foreground transition-transform group-open:rotate-180"
                  />
                </summary>
                <p className="px-4 pb-4 text-sm leading-relaxed text-muted-foreground">{answer}</p>
              </details>
            ))}
          </div>
        </CardContent>
      </Card>
      <TourAgain />
      <ContactSupport />
    </div>
  );
}

/** SPEC §2: the onboarding tour restarts from here, whether it was completed or skipped. */
function TourAgain() {
  return (
    <Card>
      <CardHeader className="gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex items-start gap-4">
          <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-primary/10 text-primary">
            <Compass className="size-5" aria-hidden="true" />
          </span>
          <div className="flex flex-col gap-1.5">
            <CardTitle>Take the tour again</CardTitle>
            <CardDescription>
              Six quick steps over the dashboard: selfies, looks, prompts, gallery and credits.
            </CardDescription>
          </div>
        </div>
        <Button asChild variant="outline" className="self-start sm:self-auto">
          <Link to={restartTourUrl}>
            <Compass aria-hidden="true" />
            Restart Tour
          </Link>
        </Button>
      </CardHeader>
    </Card>
  );
}

function ContactSupport() {
  const config = useAppConfig();
  const subject = encodeURIComponent('Likeness support request');

  return (
    <Card>
      <CardHeader className="gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex items-start gap-4">
          <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-primary/10 text-primary">
            <LifeBuoy className="size-5" aria-hidden="true" />
          </span>
          <div className="flex flex-col gap-1.5">
            <CardTitle as="h2">Still need help?</CardTitle>
            <CardDescription>
              {config.isSuccess ? (
                <>
                  Write to us at{' '}
                  <span className="font-medium [overflow-wrap:anywhere] text-foreground">
                    {config.data.supportEmail}
                  </span>{' '}
                  and we&apos;ll get back to you.
                </>
              ) : config.isError ? (
                'We couldn’t load the support address.'
              ) : (
                'Write to us and we’ll get back to you.'
              )}
            </CardDescription>
          </div>
        </div>
        {config.isSuccess ? (
          <Button asChild variant="brand" className="self-start sm:self-auto">
            <a href={`mailto:${config.data.supportEmail}?subject=${subject}`}>
              <Mail aria-hidden="true" />
              Contact Support
            </a>
          </Button>
        ) : config.isError ? (
          <Button variant="outline" className="self-start sm:self-auto" onClick={() => void config.refetch()}>
            <RotateCcw aria-hidden="true" />
            Try again
          </Button>
        ) : (
          <Button variant="brand" className="self-start sm:self-auto" disabled>
            <Spinner />
            Contact Support
          </Button>
        )}
      </CardHeader>
    </Card>
  );
}

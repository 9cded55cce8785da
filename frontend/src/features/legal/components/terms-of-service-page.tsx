import { GENERATION_COST, TRAINING_COST, WELCOME_CREDITS } from '@likeness/contracts';
import { Link } from 'react-router';
import { SupportMailLink } from '@/components/support-mail-link';
import { paths } from '@/config/paths';
import { LegalDocument, LegalList, LegalSection } from './legal-document';

const linkClasses = 'font-medium text-primary underline-offset-4 hover:underline';

/** /terms-of-service: the rules of using Likeness and buying credits. */
export function TermsOfServicePage() {
  return (
    <LegalDocument
      title="Terms of Service"
      summary={
        <p>
          In short: you must be 13 or older, you may only upload photos of yourself, credits are prepaid, never expire
          and are non-refundable, a failed training or generation costs nothing, and you can delete your account
          whenever you like.
        </p>
      }
    >
      <LegalSection title="1. Agreement">
        <p>
          These terms apply whenever you use Likeness. By creating an account you accept them and our{' '}
          <Link to={paths.privacyPolicy} className={linkClasses}>
            Privacy Policy
          </Link>
          . If you do not agree, please do not use the service.
        </p>
      </LegalSection>

      <LegalSection title="2. Who may use Likeness">
        <p>
          You must be at least 13 years old, and old enough where you live to agree to these terms (or have a parent or
          guardian agree for you). One person, one account: keep your password to yourself; you are responsible for what
          is done with your account.
        </p>
      </LegalSection>

      <LegalSection title="3. Your photos and your likeness">
        <LegalList>
          <li>
            Upload only photos of yourself, or of a person who has agreed to it. Training a model of someone without
            their consent is not allowed.
          </li>
          <li>
            Do not use Likeness to make images that are illegal, sexual images of anyone under 18, images meant to
            harass, deceive or impersonate someone, or images that infringe someone else&apos;s rights.
          </li>
          <li>
            Your selfies and the avatars you make stay yours. You give us only the permission we need to store and
            process them to provide the service to you, and it ends when you delete them.
          </li>
        </LegalList>
      </LegalSection>

      <LegalSection title="4. Credits and payments">
        <LegalList>
          <li>
            Likeness is paid for with prepaid credits, with no subscription or monthly fee. A new account starts with{' '}
            {WELCOME_CREDITS} free credits. Training a model costs {TRAINING_COST} credits; one generation of 1-4 images
            costs {GENERATION_COST} credits.
          </li>
          <li>
            Credits are held when a training or a generation starts and charged only when it succeeds. If it fails or is
            cancelled, the held credits go back to your balance.
          </li>
          <li>Credits never expire and roll over; you can buy packs as often as you like.</li>
          <li>
            Card payments are processed by Stripe. Prices are shown in US dollars before you pay, and credits are added
            once the payment has gone through.
          </li>
          <li>
            <strong>All credit purchases are final and non-refundable</strong>, unless the law where you live requires a
            refund. Unused credits have no cash value and cannot be transferred.
          </li>
          <li>We will give at least 30 days&apos; notice before changing the price of credit packs.</li>
        </LegalList>
      </LegalSection>

      <LegalSection title="5. AI-generated images">
        <p>
          Generated images are made by AI models and can be imperfect or unexpected. You may use your avatars for
          personal purposes, and for commercial purposes where your pack includes commercial usage rights. You are
          responsible for how you use and share them.
        </p>
      </LegalSection>

      <LegalSection title="6. Ending your account">
        <p>
          You can delete your account at any time from{' '}
          <Link to={paths.profile} className={linkClasses}>
            Profile Settings
          </Link>
          . Deleting it erases your selfies, models and avatars and forfeits any unused credits. We may suspend or close
          an account that breaks these terms.
        </p>
      </LegalSection>

      <LegalSection title="7. The service as it is">
        <p>
          We work to keep Likeness available and your data safe, but the service is provided as it is, without
          guarantees that it will always be available or free of errors. To the extent the law allows, our liability is
          limited to the amount you paid us in the 12 months before a claim.
        </p>
      </LegalSection>

      <LegalSection title="8. Changes to these terms">
        <p>
          We will tell you about changes to these terms at least 30 days before they take effect. If you keep using
          Likeness after that, the new terms apply.
        </p>
      </LegalSection>

      <LegalSection title="9. Contact">
        <p>
          Questions about these terms: <SupportMailLink />.
        </p>
      </LegalSection>
    </LegalDocument>
  );
}

import { Link } from 'react-router';
import { SupportMailLink } from '@/components/support-mail-link';
import { paths } from '@/config/paths';
import { LegalDocument, LegalList, LegalSection } from './legal-document';

const linkClasses = 'font-medium text-primary underline-offset-4 hover:underline';

/** /privacy-policy: what Likeness keeps about a person, where, for how long, and how to erase it. */
export function PrivacyPolicyPage() {
  return (
    <LegalDocument
      title="Privacy Policy"
      summary={
        <p>
          In short: we keep what you give us (your account, your selfies, the models trained on them, the avatars you
          make and your purchases) only to run Likeness for you. We do not sell it or use it for advertising. You can
          delete any selfie, model or avatar at any time, and deleting your account erases all of them.
        </p>
      }
    >
      <LegalSection title="1. Who we are">
        <p>
          Likeness is a web app that trains a personal AI model on your selfies and generates photos and avatars of you
          with it. This policy explains what personal data the service handles when you use it. Questions about it go to{' '}
          <SupportMailLink />.
        </p>
      </LegalSection>

      <LegalSection title="2. What we store">
        <LegalList>
          <li>
            <strong>Your account:</strong> your username, your e-mail address and your password, which we keep only as a
            one-way hash (argon2id), never in readable form.
          </li>
          <li>
            <strong>Your selfies:</strong> the photos you upload to train a model. We check each file, re-encode it and
            strip its metadata (such as the location and camera details a phone writes into a photo) before storing it,
            with a thumbnail.
          </li>
          <li>
            <strong>Your trained models:</strong> each model&apos;s name, trigger word, status and the selfies it was
            trained on.
          </li>
          <li>
            <strong>Your avatars and generations:</strong> the images generated for you, the prompts you wrote and the
            status of each generation.
          </li>
          <li>
            <strong>Credits and payments:</strong> your credit balance and every movement of it (purchases, the welcome
            credits, what a training or a generation cost), and for each purchase the pack, the amount, the credits and
            the payment&apos;s status and reference at our payment provider. We never see or store your card number.
          </li>
          <li>
            <strong>Sessions:</strong> the sign-in tokens described in our{' '}
            <Link to={paths.cookiePolicy} className={linkClasses}>
              Cookie Policy
            </Link>
            , and technical logs that name your account number when something goes wrong.
          </li>
        </LegalList>
      </LegalSection>

      <LegalSection title="3. Where it is kept">
        <LegalList>
          <li>
            <strong>Our object store</strong> holds the images: your selfies, their thumbnails, the training sets made
            from them and your avatars, each under a random name in a folder of your account. Images are only ever shown
            through links that are signed and expire, or through a share link you create for one avatar.
          </li>
          <li>
            <strong>Our PostgreSQL database</strong> holds everything else listed above: your account, your models, your
            generations and prompts, your credit ledger and your payments.
          </li>
          <li>
            <strong>Stripe</strong> processes card payments. Your card details go straight to Stripe; Stripe tells us
            whether a payment succeeded and keeps its own record of it under its own privacy policy.
          </li>
          <li>
            <strong>Replicate</strong>, our AI inference provider, trains models and generates images when the service
            is configured to use it. For a training it receives the selfies you selected; for a generation, your model
            and your prompt. We copy every result into our object store at once. Replicate deletes the outputs of
            generations itself after an hour and keeps its own records of past trainings and generations under its own
            policy.
          </li>
          <li>
            <strong>E-mail:</strong> password reset links and the confirmation of an account deletion are sent to your
            address through our mail provider.
          </li>
        </LegalList>
      </LegalSection>

      <LegalSection title="4. What we use it for">
        <p>
          We use your data only to provide Likeness to you: to sign you in, to train your models and generate your
          images, to keep your credit balance right and to answer your questions. We do not sell your data, share it for
          advertising, or use your selfies and avatars to train anything other than your own model.
        </p>
      </LegalSection>

      <LegalSection title="5. How long we keep it">
        <p>
          Your selfies, models, avatars and prompts are kept for as long as your account exists, unless you delete them
          earlier: each can be deleted on its own at any time, and a deleted avatar&apos;s share link stops working at
          once.
        </p>
        <p>When your account is deleted:</p>
        <LegalList>
          <li>
            Your account, selfies, models, avatars, generations and prompts are removed from our database at once, and
            the image files are purged from our object store straight afterwards. Trainings still running and
            generations still queued are cancelled, and your models are deleted at Replicate.
          </li>
          <li>
            Your username and e-mail address are replaced in our records, so nothing names you any more. Your account
            number stays taken so it is never given to someone else.
          </li>
          <li>
            The record of your credit movements and payments is kept, linked only to that account number, because
            accounting and tax rules require us to be able to prove every sale and to answer a refund or a chargeback.
          </li>
          <li>
            Some copies take a little longer to disappear: our internal event log keeps messages for at most 30 days
            (the one announcing your registration carries your username and e-mail address), database backups until they
            are rotated out, and technical logs for as long as the operator keeps them.
          </li>
        </LegalList>
      </LegalSection>

      <LegalSection title="6. Deleting your data">
        <p>
          You can delete a selfie, a model or an avatar from its screen whenever you like. To delete everything, go to{' '}
          <Link to={paths.profile} className={linkClasses}>
            Profile Settings
          </Link>
          , choose Delete account and confirm with your password: that erases your account and all of your data as
          described above, and signs you out on every device. Unused credits are lost with the account.
        </p>
      </LegalSection>

      <LegalSection title="7. Security">
        <p>
          Passwords are hashed, sessions live in cookies that scripts cannot read, every image and record is checked
          against its owner before it is served, and uploads are checked by their content before they are stored.
        </p>
      </LegalSection>

      <LegalSection title="8. Children">
        <p>
          Likeness is not for children: you must be at least 13 years old to use it. If you believe a child under 13 has
          created an account, write to <SupportMailLink /> and we will delete it.
        </p>
      </LegalSection>

      <LegalSection title="9. Your rights">
        <p>
          You can see your account details, selfies, models, avatars and credit history in the app at any time, and
          delete them as described above. For a copy of your data, a correction or any other request about your personal
          data, write to <SupportMailLink />.
        </p>
      </LegalSection>

      <LegalSection title="10. Changes to this policy">
        <p>
          We will tell you about changes to this policy at least 30 days before they take effect, by e-mail or in the
          app. The date at the top says when it last changed.
        </p>
      </LegalSection>
    </LegalDocument>
  );
}

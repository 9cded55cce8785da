import { AuthEvents, BillingEvents, TrainingEvents } from '@likeness/contracts';
import { type SmtpCatcher, readDevMailbox, startSmtpCatcher, waitFor } from '@likeness/testing';
import { type AuthUnderTest, PUBLIC_URL, startAuth } from './auth-harness.js';

describe('mails on events', () => {
  describe('through the dev mailbox', () => {
    let auth: AuthUnderTest;
    const mailsTo = async (to: string) =>
      (await readDevMailbox(auth.env.env['DATA_DIR']!)).filter((mail) => mail.to.includes(to));

    beforeAll(async () => {
      auth = await startAuth('mails');
    });

    afterAll(async () => {
      await auth?.close();
    });

    it('should welcome a new user once, however often UserRegistered is delivered', async () => {
      const { user } = await auth.register('hedy');
      const [welcome] = await waitFor(async () => {
        const mails = await mailsTo('hedy@example.com');
        return mails.length > 0 ? mails : undefined;
      });
      expect(welcome!.subject).toBe('Welcome to Likeness, hedy');
      expect(welcome!.text).toContain(`${PUBLIC_URL}/dashboard`);
      expect(welcome!.html).toContain('Go to your dashboard');

      // The same event again, as a redelivery after a lost acknowledgement would bring it.
      const { rows } = await auth.db.query<{ envelope: { id: string; payload: { userId: number } } }>(
        `SELECT envelope FROM auth.outbox WHERE subject = 'events.auth.UserRegistered.v1'`,
      );
      const original = rows.find((row) => row.envelope.payload.userId === user.id)!;
      await auth.publish(AuthEvents.UserRegistered, original.envelope.payload as never, {
        copies: 2,
        id: original.envelope.id,
      });
      await auth.settled(original.envelope.id);
      expect(await mailsTo('hedy@example.com')).toHaveLength(1);
    });

    it("should say a model is ready, and that a failed training's credits were not charged", async () => {
      const { user } = await auth.register('katherine');
      const base = { userId: user.id, holdReference: 'training:1' };
      const ready = await auth.publish(TrainingEvents.TrainingCompleted, {
        ...base,
        modelId: 1,
        modelName: 'Kat <b>&</b> co',
        triggerWord: 'kat',
        provider: 'local',
        version: 'v1',
        imageKeys: [],
      });
      const failed = await auth.publish(TrainingEvents.TrainingFailed, {
        ...base,
        modelId: 2,
        reason: 'The training took too long and was stopped. Your credits were not charged.',
      });
      await auth.settled(ready);
      await auth.settled(failed);

      const mails = await mailsTo('katherine@example.com');
      const readyMail = mails.find((mail) => /is ready/.test(mail.subject))!;
      expect(readyMail.subject).toBe('Your model "Kat <b>&</b> co" is ready');
      // Escaped in the HTML part: a model name is text, never markup.
      expect(readyMail.html).toContain('Kat &lt;b&gt;&amp;&lt;/b&gt; co');
      expect(readyMail.text).toContain(`${PUBLIC_URL}/create`);
      const failedMail = mails.find((mail) => /failed/.test(mail.subject))!;
      // Training is not running here: the mail names the model as best it can.
      expect(failedMail.subject).toBe('Training "your model" failed: your 30 credits were not charged');
      expect(failedMail.text).toContain('The training took too long and was stopped.');
      expect(failedMail.text).toContain('Your 30 credits were not charged.');
      expect(failedMail.text.match(/not charged/g)).toHaveLength(1);
    });

    it('should send a receipt with the package, the credits and the amount', async () => {
      const { user } = await auth.register('grace');
      const eventId = await auth.publish(BillingEvents.PaymentSucceeded, {
        paymentId: 'b5b0f1f2-8d0e-4a43-9d1b-0d7a2f1c9a11',
        userId: user.id,
        provider: 'local',
        providerPaymentId: 'pi_local_1',
        packageId: 'creator',
        amountCents: 1100,
        credits: 125,
      });
      await auth.settled(eventId);
      const receipt = (await mailsTo('grace@example.com')).find((mail) => /receipt/.test(mail.subject))!;
      // Billing is not running here: the package is named by its id.
      expect(receipt.subject).toBe('Your Likeness receipt: creator, 125 credits');
      expect(receipt.text).toMatch(/Credits:\s+125/);
      expect(receipt.text).toMatch(/Amount:\s+\$11\.00/);
      expect(receipt.text).toContain(`${PUBLIC_URL}/profile?tab=billing`);
    });

    it('should send nothing for an event older than MAIL_MAX_EVENT_AGE_HOURS, or for an account that is gone', async () => {
      const { user } = await auth.register('old_news');
      await waitFor(async () => ((await mailsTo('old_news@example.com')).length === 1 ? true : undefined));
      const stale = await auth.publish(
        TrainingEvents.TrainingFailed,
        { userId: user.id, modelId: 9, holdReference: 'training:9', reason: 'Stopped.' },
        { occurredAt: new Date(Date.now() - 25 * 3_600_000) },
      );
      const nobody = await auth.publish(TrainingEvents.TrainingFailed, {
        userId: 999_999,
        modelId: 10,
        holdReference: 'training:10',
        reason: 'Stopped.',
      });
      await auth.settled(stale);
      await auth.settled(nobody);
      expect((await mailsTo('old_news@example.com')).map((mail) => mail.subject)).toEqual([
        'Welcome to Likeness, old_news',
      ]);
    });
  });

  describe('through SMTP', () => {
    let smtp: SmtpCatcher;
    let auth: AuthUnderTest | undefined;

    beforeEach(async () => {
      smtp = await startSmtpCatcher();
    });

    afterEach(async () => {
      await auth?.close();
      auth = undefined;
      await smtp.close();
    });

    it('should deliver a mail once the mail server is back, and only once', async () => {
      smtp.answer((attempt) => (attempt <= 2 ? { code: 451, message: 'Try again later' } : undefined));
      auth = await startAuth('smtp-outage', { SMTP_URL: smtp.url, MAIL_RETRY_INITIAL_MS: '100' });
      await auth.register('ida');
      await waitFor(async () => (smtp.received.length > 0 ? true : undefined), { timeoutMs: 15_000 });
      await auth.settled();
      expect(smtp.attempts()).toBe(3);
      expect(smtp.received.map((mail) => [mail.to, mail.subject])).toEqual([
        [['ida@example.com'], 'Welcome to Likeness, ida'],
      ]);
      expect(smtp.received[0]!.from).toBe('noreply@likeness.local');
    });

    it('should give a mail up after MAIL_MAX_ATTEMPTS, and a refused address at once', async () => {
      smtp.answer(() => ({ code: 451, message: 'Try again later' }));
      auth = await startAuth('smtp-down', {
        SMTP_URL: smtp.url,
        MAIL_RETRY_INITIAL_MS: '50',
        MAIL_MAX_ATTEMPTS: '3',
      });
      await auth.register('barbara');
      await waitFor(async () => (smtp.attempts() >= 3 ? true : undefined), { timeoutMs: 15_000 });
      await auth.settled();
      expect(smtp.attempts()).toBe(3);

      smtp.answer(() => ({ code: 550, message: 'No such user' }));
      await auth.register('margaret');
      await waitFor(async () => (smtp.attempts() >= 4 ? true : undefined), { timeoutMs: 15_000 });
      await auth.settled();
      expect(smtp.attempts()).toBe(4);
      expect(smtp.received).toEqual([]);
    });
  });
});

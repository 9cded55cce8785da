import { LOCAL_TEST_CARDS, localPaymentConfirmRequestSchema } from '@likeness/contracts';
import { CircleAlert, FlaskConical, Lock } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { paymentResultUrl } from '@/config/paths';
import { useSchemaForm } from '@/hooks/use-schema-form';
import { isApiError, serverMessageOr } from '@/lib/api-client';
import { useConfirmLocalPayment } from '../api/confirm-local-payment';
import { formatAmount, formatCardNumber } from '../utils/format';

const fields = ['cardNumber'] as const;
const cardSchema = localPaymentConfirmRequestSchema.pick({ cardNumber: true });

const testCards = [
  { number: LOCAL_TEST_CARDS.success, outcome: 'Payment succeeds' },
  { number: LOCAL_TEST_CARDS.declined, outcome: 'Card is declined' },
] as const;

interface LocalTestCardFormProps {
  paymentIntentId: string;
  /** Dollars, for the Pay button. */
  amount: number;
}

/** The local test processor's card form (DESIGN §4): honest about being a test, no real card is charged. */
export function LocalTestCardForm({ paymentIntentId, amount }: LocalTestCardFormProps) {
  const navigate = useNavigate();
  const confirmLocalPayment = useConfirmLocalPayment();
  const [cardNumber, setCardNumber] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const { errors, clearError, handleSubmit } = useSchemaForm({
    schema: cardSchema,
    fields,
    onValid: async (values) => {
      const result = await confirmLocalPayment.mutateAsync({ paymentIntentId, cardNumber: values.cardNumber });
      await navigate(paymentResultUrl(result.paymentIntentId));
    },
  });
  const isPending = confirmLocalPayment.isPending;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    setFailure(null);
    await handleSubmit(event).catch((error: unknown) => {
      const declined = isApiError(error) && (error.code === 'BILLING.PAYMENT_DECLINED' || error.status === 402);
      const message = serverMessageOr(error, 'Your payment could not be completed. Please try again.');
      setFailure(message);
      toast({ variant: 'destructive', title: declined ? 'Payment declined' : 'Payment failed', description: message });
    });
  }

  function fillTestCard(number: string) {
    setCardNumber(formatCardNumber(number));
    setFailure(null);
    clearError('cardNumber');
    document.getElementById('local-card-number')?.focus();
  }

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-5">
      <div className="rounded-xl border border-amber-500/40 bg-amber-500/10 p-4 text-sm">
        <p className="flex items-center gap-2 font-semibold text-amber-900 dark:text-amber-200">
          <FlaskConical className="size-4 shrink-0" aria-hidden="true" />
          Test mode — no real card is charged
        </p>
        <p className="mt-1.5 text-amber-900/80 dark:text-amber-100/80">
          Payments go to the local test processor. Use one of these test cards:
        </p>
        <ul className="mt-3 grid gap-2">
          {testCards.map(({ number, outcome }) => {
            const formatted = formatCardNumber(number);
            return (
              <li
                key={number}
                className="flex items-center justify-between gap-3 rounded-lg bg-background/70 py-1.5 pr-1.5 pl-3 ring-1 ring-amber-500/20"
              >
                <span className="min-w-0">
                  <span className="block font-mono text-[13px] font-medium tracking-wide tabular-nums">
                    {formatted}
                  </span>
                  <span className="block text-xs text-muted-foreground">{outcome}</span>
                </span>
                <Button
                  variant="ghost"
                  size="sm"
                  className="h-8 shrink-0"
                  aria-label={`Use test card ${formatted}`}
                  disabled={isPending}
                  onClick={() => fillTestCard(number)}
                >
                  Use
                </Button>
              </li>
            );
          })}
        </ul>
      </div>

      <FormField
        id="local-card-number"
        name="cardNumber"
        label="Card number"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="4242 4242 4242 4242"
        maxLength={23}
        spellCheck={false}
        className="[&_input]:font-mono [&_input]:tracking-wide"
        value={cardNumber}
        disabled={isPending}
        error={errors.cardNumber}
        onChange={(event) => {
          setCardNumber(formatCardNumber(event.target.value));
          clearError('cardNumber');
        }}
      />

      {failure ? (
        <div
          role="alert"
          className="flex items-start gap-2.5 rounded-lg border border-destructive/40 bg-destructive/10 p-3 text-sm text-destructive dark:text-red-300"
        >
          <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <p>{failure}</p>
        </div>
      ) : null}

      <Button type="submit" variant="brand" size="lg" className="w-full" disabled={isPending}>
        {isPending ? <Spinner /> : <Lock aria-hidden="true" />}
        Pay {formatAmount(amount)}
      </Button>
      <p className="text-center text-xs text-muted-foreground">
        No expiry date or CVC needed in test mode. Your credits are added as soon as the payment goes through.
      </p>
    </form>
  );
}

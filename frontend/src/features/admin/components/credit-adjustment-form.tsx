import { CREDIT_ADJUSTMENT_MAX, creditAdjustmentRequestSchema } from '@likeness/contracts';
import { CircleAlert } from 'lucide-react';
import { useRef, useState } from 'react';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { useSchemaForm } from '@/hooks/use-schema-form';
import { isApiError, serverMessageOr } from '@/lib/api-client';
import { useAdjustUserCredits } from '../api/adjust-user-credits';
import { formatCount } from '../utils/format';

const fields = ['delta', 'reason'] as const;
const { delta, reason } = creditAdjustmentRequestSchema.shape;
/** The form's text as the contract's request (less the request id): the delta typed is a number. */
const formSchema = z.object({
  delta: z
    .string()
    .trim()
    .transform((text) => (text === '' ? Number.NaN : Number(text)))
    .pipe(delta),
  reason,
});

/**
 * The id of one intended adjustment. A retry of the same values after a failure that may not
 * have reached the ledger (no answer, a server error) sends the same id, so it counts once;
 * new values, a success or a clear refusal start a new one.
 */
function useRequestId() {
  const pending = useRef<{ key: string; requestId: string } | null>(null);
  return {
    forValues(key: string): string {
      if (pending.current?.key !== key) pending.current = { key, requestId: crypto.randomUUID() };
      return pending.current.requestId;
    },
    settle(error?: unknown) {
      // Only a refusal the server answered (4xx) leaves the ledger untouched for sure.
      if (!error || (isApiError(error) && error.status < 500)) pending.current = null;
    },
  };
}

/** Grant (a positive number) or deduct (a negative one) credits, with a reason the user sees. */
export function CreditAdjustmentForm({ userId, username }: { userId: number; username: string }) {
  const adjust = useAdjustUserCredits(userId);
  const requestIds = useRequestId();
  const formRef = useRef<HTMLFormElement>(null);
  const [formError, setFormError] = useState<string | null>(null);

  const { errors, clearError, onSubmit } = useSchemaForm({
    schema: formSchema,
    fields,
    onValid: async (values) => {
      setFormError(null);
      const requestId = requestIds.forValues(`${values.delta}\n${values.reason}`);
      try {
        const result = await adjust.mutateAsync({ ...values, requestId });
        requestIds.settle();
        formRef.current?.reset();
        const amount = `${formatCount(Math.abs(result.delta))} ${Math.abs(result.delta) === 1 ? 'credit' : 'credits'}`;
        toast({
          title: 'Credits adjusted',
          description: `${result.delta > 0 ? 'Granted' : 'Deducted'} ${amount} ${result.delta > 0 ? 'to' : 'from'} ${username}. New balance: ${formatCount(result.balance)}.`,
        });
      } catch (error) {
        requestIds.settle(error);
        throw error;
      }
    },
    onFailure: (error) => {
      if (isApiError(error) && error.issues.length > 0) return;
      setFormError(serverMessageOr(error, 'The credits could not be adjusted. Please try again.'));
    },
  });

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} aria-label="Adjust credits" className="grid gap-4">
      <div className="grid gap-4 sm:grid-cols-[10rem_minmax(0,1fr)]">
        <FormField
          id={`admin-adjust-delta-${userId}`}
          name="delta"
          label="Credits"
          inputMode="numeric"
          placeholder="e.g. 50 or -20"
          hint={`Negative deducts; up to ${formatCount(CREDIT_ADJUSTMENT_MAX)}.`}
          autoComplete="off"
          className="content-start"
          required
          error={errors.delta}
          onChange={() => {
            clearError('delta');
            setFormError(null);
          }}
        />
        <FormField
          id={`admin-adjust-reason-${userId}`}
          name="reason"
          label="Reason"
          placeholder="Shown to the user in their credit history"
          autoComplete="off"
          maxLength={200}
          className="content-start"
          required
          error={errors.reason}
          onChange={() => {
            clearError('reason');
            setFormError(null);
          }}
        />
      </div>
      {formError ? (
        <p role="alert" className="flex items-start gap-1.5 text-sm text-destructive">
          <CircleAlert className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
          <span>{formError}</span>
        </p>
      ) : null}
      <Button type="submit" variant="brand" className="justify-self-start" disabled={adjust.isPending}>
        {adjust.isPending ? <Spinner /> : null}
        Adjust Credits
      </Button>
    </form>
  );
}

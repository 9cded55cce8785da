import { ArrowLeft } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { PageSpinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { paths } from '@/config/paths';
import { serverMessageOr } from '@/lib/api-client';
import { useCreatePaymentIntent } from '../api/create-payment-intent';
import { CompletePurchase } from './complete-purchase';

/**
 * /checkout/:packageId: starts a payment for one package as soon as it opens, then shows the
 * payment form. Render it with `key={packageId}` so another package starts another payment.
 */
export function CheckoutPage({ packageId }: { packageId: string }) {
  const navigate = useNavigate();
  const createIntent = useCreatePaymentIntent();
  const { mutate } = createIntent;
  // One payment intent per visit, even when StrictMode runs the effect twice.
  const requested = useRef(false);

  useEffect(() => {
    if (requested.current) return;
    requested.current = true;
    mutate(
      { packageId },
      {
        onError: (error) => {
          toast({
            variant: 'destructive',
            title: 'Error',
            description: serverMessageOr(error, 'Could not initialize payment. Please try again.'),
          });
          void navigate(paths.dashboard, { replace: true });
        },
      },
    );
  }, [mutate, navigate, packageId]);

  if (!createIntent.data) return <PageSpinner label="Preparing checkout" />;

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 md:py-12 lg:px-8">
      <CompletePurchase
        intent={createIntent.data}
        backAction={
          <Button asChild variant="ghost" size="sm" className="-ml-3">
            <Link to={paths.credits}>
              <ArrowLeft aria-hidden="true" />
              Back to Packages
            </Link>
          </Button>
        }
      />
    </div>
  );
}

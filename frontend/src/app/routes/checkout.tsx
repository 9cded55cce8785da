import { Navigate, useParams } from 'react-router';
import { paths } from '@/config/paths';
import { CheckoutPage } from '@/features/credits/components/checkout-page';

/** /checkout/:packageId: a fresh checkout (and payment intent) per package. */
export function Component() {
  const { packageId } = useParams();
  if (!packageId) return <Navigate to={paths.credits} replace />;
  return <CheckoutPage key={packageId} packageId={packageId} />;
}

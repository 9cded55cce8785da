import type { AdminJobStatus, AdminPaymentStatus } from '@likeness/contracts';
import type { BadgeTone } from '@/components/ui/status-badge';

/** SPEC §2: a succeeded payment's badge reads "success"; refunds and disputes stand out. */
export const paymentStatusDisplay: Record<AdminPaymentStatus, { label: string; tone: BadgeTone }> = {
  succeeded: { label: 'success', tone: 'green' },
  refunded: { label: 'refunded', tone: 'grey' },
  disputed: { label: 'disputed', tone: 'red' },
};

export const jobStatusDisplay: Record<AdminJobStatus, { label: string; tone: BadgeTone }> = {
  pending: { label: 'pending', tone: 'yellow' },
  completed: { label: 'completed', tone: 'green' },
  failed: { label: 'failed', tone: 'red' },
};

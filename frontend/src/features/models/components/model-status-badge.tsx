import { StatusBadge } from '@/components/ui/status-badge';
import { modelStatusDisplay } from '@/lib/custom-models/model-status';

/** SPEC §4: a model's status in words and colour (pending yellow, training blue, ready green, failed red, other grey). */
export function ModelStatusBadge({ status, className }: { status: string; className?: string }) {
  const { label, tone } = modelStatusDisplay(status);
  return (
    <StatusBadge tone={tone} className={className}>
      {label}
    </StatusBadge>
  );
}

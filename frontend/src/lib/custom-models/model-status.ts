import type { BadgeTone } from '@/components/ui/status-badge';

export interface StatusDisplay {
  label: string;
  tone: BadgeTone;
}

/** SPEC §4: pending and training models are still on their way (and lock the training form). */
export function isTrainingStatus(status: string): boolean {
  return status === 'pending' || status === 'training';
}

/** SPEC §4: a model's status badge; any status it does not name is shown as it is, in grey. */
export function modelStatusDisplay(status: string): StatusDisplay {
  switch (status) {
    case 'pending':
      return { label: 'Preparing to train', tone: 'yellow' };
    case 'training':
      return { label: 'Training in progress', tone: 'blue' };
    case 'completed':
    case 'ready':
      return { label: 'Ready to use', tone: 'green' };
    case 'failed':
      return { label: 'Training failed', tone: 'red' };
    default:
      return { label: status, tone: 'grey' };
  }
}

/** SPEC §2: a trained model is a completed one ("ready" is the old name of "completed", SPEC §4). */
export function isCompletedStatus(status: string): boolean {
  return status === 'completed' || status === 'ready';
}

import { type ReactNode, useState } from 'react';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from './alert-dialog';
import { Spinner } from './spinner';

interface ConfirmDialogProps {
  /** The element that opens the dialog (rendered as the trigger, `asChild`). */
  trigger: ReactNode;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  /** True while the confirmed action runs: the dialog stays open with a spinner. */
  pending: boolean;
  /** Runs the action; the dialog closes when it settles, however it ends. */
  onConfirm: () => Promise<void>;
}

/** A destructive action behind an "are you sure" step, which waits for the server's answer. */
export function ConfirmDialog({ trigger, title, description, confirmLabel, pending, onConfirm }: ConfirmDialogProps) {
  const [open, setOpen] = useState(false);

  return (
    <AlertDialog open={open} onOpenChange={(next) => !pending && setOpen(next)}>
      <AlertDialogTrigger asChild>{trigger}</AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
          <AlertDialogAction
            disabled={pending}
            onClick={(event) => {
              // Stay open with a spinner until the server answers.
              event.preventDefault();
              void onConfirm().finally(() => setOpen(false));
            }}
          >
            {pending ? <Spinner /> : null}
            {confirmLabel}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

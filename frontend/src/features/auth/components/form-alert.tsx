import { CircleAlert } from 'lucide-react';

/** The id a form's fields point at (aria-describedby) while its alert shows. */
export function formAlertId(formId: string): string {
  return `${formId}-alert`;
}

/**
 * Why the last submit failed, beside the fields (the toast says it too, but goes away). An
 * alert, so a screen reader says it at once; the fields name it as their description.
 */
export function FormAlert({ formId, message }: { formId: string; message: string | null }) {
  if (!message) return null;
  return (
    <p
      id={formAlertId(formId)}
      role="alert"
      className="flex items-start gap-2 rounded-lg border border-destructive/40 bg-destructive/10 px-3 py-2.5 text-sm text-destructive dark:border-destructive/60 dark:bg-destructive/15"
    >
      <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span>{message}</span>
    </p>
  );
}

/** What a field adds while the form's alert shows and it has no message of its own. */
export function invalidWithAlert(formId: string, message: string | null, fieldError: string | undefined) {
  if (!message || fieldError) return {};
  return { 'aria-invalid': true, 'aria-describedby': formAlertId(formId) } as const;
}

import type { z } from 'zod';
import { useState, type FormEvent } from 'react';
import { toast } from '@/components/ui/use-toast';
import { isApiError, serverMessageOr } from '@/lib/api-client';

export type FieldErrors<TField extends string> = Partial<Record<TField, string>>;

/** The first message per top-level field, in the order they were reported. */
function firstIssuePerField<TField extends string>(
  issues: readonly { path: string | readonly PropertyKey[]; message: string }[],
  fields: readonly TField[],
): FieldErrors<TField> {
  const errors: FieldErrors<TField> = {};
  for (const issue of issues) {
    const head = typeof issue.path === 'string' ? issue.path.split('.')[0] : issue.path[0];
    const field = fields.find((candidate) => candidate === head);
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

/**
 * A form checked with a contract schema: the messages under the fields come from the schema
 * (before sending) or from the server's `issues` (after), and focus moves to the first field in
 * error so a screen reader reads its message.
 */
export function useSchemaForm<TField extends string, TSchema extends z.ZodType>(options: {
  schema: TSchema;
  fields: readonly TField[];
  onValid: (values: z.output<TSchema>) => Promise<void>;
  /** What `onSubmit` does with a failed `onValid` (see {@link failureToast}). */
  onFailure?: (error: unknown) => void;
  /**
   * A failure the server did not explain field by field is also kept as `formError` (the
   * server's message, else `fallback`), to show beside the fields, and focus goes back to
   * `focus` (else the first field) so the person can correct it at once.
   */
  inlineFailure?: { fallback: string; focus?: TField };
}) {
  const { schema, fields, onValid, onFailure, inlineFailure } = options;
  const [errors, setErrors] = useState<FieldErrors<TField>>({});
  const [formError, setFormError] = useState<string | null>(null);

  const show = (form: HTMLFormElement, fieldErrors: FieldErrors<TField>) => {
    setErrors(fieldErrors);
    const first = fields.find((field) => fieldErrors[field]);
    const element = first ? form.elements.namedItem(first) : null;
    if (element instanceof HTMLElement) element.focus();
  };

  const clearError = (field: TField) => {
    setErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));
    setFormError(null);
  };

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setFormError(null);
    const data = new FormData(form);
    const parsed = schema.safeParse(Object.fromEntries(fields.map((field) => [field, String(data.get(field) ?? '')])));
    if (!parsed.success) {
      show(form, firstIssuePerField(parsed.error.issues, fields));
      return;
    }
    setErrors({});
    try {
      await onValid(parsed.data);
    } catch (error) {
      if (isApiError(error) && error.issues.length > 0) show(form, firstIssuePerField(error.issues, fields));
      throw error;
    }
  }

  /** The form's submit handler: {@link handleSubmit}, with a failure handed to `onFailure`. */
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    const form = event.currentTarget;
    try {
      await handleSubmit(event);
    } catch (error) {
      if (inlineFailure && !(isApiError(error) && error.issues.length > 0)) {
        setFormError(serverMessageOr(error, inlineFailure.fallback));
        const element = form.elements.namedItem(inlineFailure.focus ?? fields[0] ?? '');
        if (element instanceof HTMLElement) element.focus();
      }
      if (!onFailure) throw error;
      onFailure(error);
    }
  }

  return { errors, formError, clearError, handleSubmit, onSubmit };
}

/**
 * A failed submit said in a destructive toast: the server's message, else the fallback. With
 * `unlessUnderFields`, a refusal the server explained field by field is left to the fields.
 */
export function failureToast(title: string, fallback: string, { unlessUnderFields = false } = {}) {
  return (error: unknown) => {
    if (unlessUnderFields && isApiError(error) && error.issues.length > 0) return;
    toast({ variant: 'destructive', title, description: serverMessageOr(error, fallback) });
  };
}

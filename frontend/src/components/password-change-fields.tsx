import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import type { FieldErrors } from '@/hooks/use-schema-form';

export const passwordChangeFields = ['currentPassword', 'newPassword', 'confirmPassword'] as const;
export type PasswordChangeField = (typeof passwordChangeFields)[number];

/**
 * The current, new and confirmation fields of a password change and its button, with the username
 * hidden beside them so password managers file the new password under the right account.
 */
export function PasswordChangeFields({
  idPrefix,
  username,
  newPasswordHint,
  errors,
  clearError,
  pending,
}: {
  idPrefix: string;
  username: string;
  /** The new password's placeholder: the rule it must meet, in short. */
  newPasswordHint: string;
  errors: FieldErrors<PasswordChangeField>;
  clearError: (field: PasswordChangeField) => void;
  /** While the change is on its way: the button waits. */
  pending: boolean;
}) {
  return (
    <>
      <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
      <FormField
        id={`${idPrefix}-current-password`}
        name="currentPassword"
        type="password"
        label="Current Password"
        autoComplete="current-password"
        required
        error={errors.currentPassword}
        onChange={() => clearError('currentPassword')}
      />
      <FormField
        id={`${idPrefix}-new-password`}
        name="newPassword"
        type="password"
        label="New Password"
        autoComplete="new-password"
        placeholder={newPasswordHint}
        required
        error={errors.newPassword}
        onChange={() => clearError('newPassword')}
      />
      <FormField
        id={`${idPrefix}-confirm-password`}
        name="confirmPassword"
        type="password"
        label="Confirm New Password"
        autoComplete="new-password"
        placeholder="Repeat new password"
        required
        error={errors.confirmPassword}
        onChange={() => clearError('confirmPassword')}
      />
      <Button type="submit" variant="brand" className="justify-self-start" disabled={pending}>
        {pending ? <Spinner /> : null}
        Change Password
      </Button>
    </>
  );
}

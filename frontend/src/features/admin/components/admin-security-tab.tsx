import { ADMIN_PASSWORD_MIN, adminChangePasswordRequestSchema, type CurrentUser } from '@likeness/contracts';
import { CircleCheck, KeyRound, ShieldCheck } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { PasswordChangeFields, passwordChangeFields as fields } from '@/components/password-change-fields';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { failureToast, useSchemaForm } from '@/hooks/use-schema-form';
import { useChangeAdminPassword } from '../api/change-admin-password';

/** SPEC §9: the success banner after the administrator's password change hides after 5 seconds. */
export const PASSWORD_BANNER_MS = 5000;

/**
 * SPEC §2 Security: the administrator's password change under SPEC §5's stricter rules (checked
 * here with the shared schema, so the messages under the fields are the server's), and who the
 * administrator is. `bannerMs` is how long the success banner stays (tests shorten it).
 */
export function AdminSecurityTab({ admin, bannerMs = PASSWORD_BANNER_MS }: { admin: CurrentUser; bannerMs?: number }) {
  const changePassword = useChangeAdminPassword();
  const formRef = useRef<HTMLFormElement>(null);
  // Each success gets its own number, so a second change within the 5 seconds restarts the timer.
  const [banner, setBanner] = useState(0);

  useEffect(() => {
    if (!banner) return;
    const timer = setTimeout(() => setBanner(0), bannerMs);
    return () => clearTimeout(timer);
  }, [banner, bannerMs]);

  const { errors, clearError, onSubmit } = useSchemaForm({
    schema: adminChangePasswordRequestSchema,
    fields,
    onValid: async (request) => {
      await changePassword.mutateAsync(request);
      formRef.current?.reset();
      setBanner((count) => count + 1);
      toast({ title: 'Password Updated', description: 'Your administrator password has been changed.' });
    },
    // A wrong current password comes back as an issue on its field (shown there); the rest in a toast.
    onFailure: failureToast('Password Change Failed', 'Failed to update password. Please try again.', {
      unlessUnderFields: true,
    }),
  });

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <KeyRound className="size-5 text-primary" aria-hidden="true" />
            Change administrator password
          </CardTitle>
          <CardDescription>
            At least {ADMIN_PASSWORD_MIN} characters with an uppercase letter, a lowercase letter, a number and a
            special character, and none of the common weak patterns.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          {banner ? (
            <p
              role="status"
              className="flex items-center gap-2 rounded-xl border border-emerald-500/40 bg-emerald-500/10 px-4 py-3 text-sm font-medium text-emerald-800 dark:text-emerald-200"
            >
              <CircleCheck className="size-4 shrink-0" aria-hidden="true" />
              Your password has been updated successfully.
            </p>
          ) : null}
          <form ref={formRef} noValidate onSubmit={onSubmit} className="grid max-w-md gap-5">
            <PasswordChangeFields
              idPrefix="admin"
              username={admin.username}
              newPasswordHint={`At least ${ADMIN_PASSWORD_MIN} characters`}
              errors={errors}
              clearError={clearError}
              pending={changePassword.isPending}
            />
          </form>
        </CardContent>
      </Card>

      <Card className="self-start">
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <ShieldCheck className="size-5 text-primary" aria-hidden="true" />
            Administrator account
          </CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-3 text-sm">
            <div className="grid gap-0.5">
              <dt className="text-muted-foreground">Username</dt>
              <dd className="font-medium wrap-anywhere">{admin.username}</dd>
            </div>
            <div className="grid gap-0.5">
              <dt className="text-muted-foreground">Email</dt>
              <dd className="font-medium wrap-anywhere">{admin.email}</dd>
            </div>
            <div className="grid gap-0.5">
              <dt className="text-muted-foreground">Account ID</dt>
              <dd className="font-medium tabular-nums">{admin.id}</dd>
            </div>
            <div className="grid gap-0.5">
              <dt className="text-muted-foreground">Role</dt>
              <dd>
                <span className="inline-flex rounded-full bg-primary/10 px-2.5 py-1 text-xs font-semibold text-primary">
                  Administrator
                </span>
              </dd>
            </div>
          </dl>
        </CardContent>
      </Card>
    </div>
  );
}

import type { CurrentUser } from '@likeness/contracts';
import { Coins, History, Plus } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { paths } from '@/config/paths';
import { initialsOf } from '@/lib/initials-of';
import { DeleteAccountDialog } from './delete-account-dialog';

interface AccountTabProps {
  user: CurrentUser;
  onShowHistory: () => void;
}

/** SPEC §2 Account: username and e-mail (read-only), credits remaining, and deleting the account. */
export function AccountTab({ user, onShowHistory }: AccountTabProps) {
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader className="flex-row items-center gap-4">
          <span
            aria-hidden="true"
            className="bg-brand-gradient grid size-14 shrink-0 place-items-center rounded-full text-lg font-semibold text-white shadow-md shadow-fuchsia-500/20"
          >
            {initialsOf(user.username)}
          </span>
          <div className="flex min-w-0 flex-col gap-1">
            <CardTitle as="h2" className="truncate">
              {user.username}
            </CardTitle>
            <CardDescription className="truncate">{user.email}</CardDescription>
          </div>
        </CardHeader>
        <CardContent className="grid gap-5 sm:grid-cols-2">
          <ReadOnlyField id="profile-username" label="Username" value={user.username} />
          <ReadOnlyField id="profile-email" label="Email" value={user.email} />
          <p className="text-sm text-muted-foreground sm:col-span-2">
            Your username and e-mail address can&apos;t be changed. The e-mail address is where password reset links and
            receipts go.
          </p>
        </CardContent>
      </Card>

      <Card className="relative overflow-hidden">
        <div aria-hidden="true" className="bg-brand-gradient absolute inset-x-0 top-0 h-1" />
        <CardHeader className="pb-2">
          <CardDescription className="flex items-center gap-2 font-medium">
            <Coins className="size-4 text-primary" aria-hidden="true" />
            Credits remaining
          </CardDescription>
          <p className="text-4xl font-semibold tabular-nums">{user.credits.toLocaleString('en-US')}</p>
        </CardHeader>
        <CardContent className="flex flex-col gap-3 sm:flex-row">
          <Button asChild variant="brand">
            <Link to={paths.plans}>
              <Plus aria-hidden="true" />
              Buy More Credits
            </Link>
          </Button>
          <Button variant="outline" onClick={onShowHistory}>
            <History aria-hidden="true" />
            View Credit History
          </Button>
        </CardContent>
      </Card>

      <Card className="border-destructive/40">
        <CardHeader>
          <CardTitle as="h2" className="text-destructive">
            Delete account
          </CardTitle>
          <CardDescription>
            Deletes your selfies, trained models and avatars for good, and signs you out everywhere. Credits you have
            left are lost. This can&apos;t be undone.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <DeleteAccountDialog />
        </CardContent>
      </Card>
    </div>
  );
}

function ReadOnlyField({ id, label, value }: { id: string; label: string; value: string }) {
  return (
    <div className="grid min-w-0 gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} value={value} readOnly className="bg-muted/50 text-muted-foreground" />
    </div>
  );
}

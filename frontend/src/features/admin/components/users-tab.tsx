import type { AdminUser } from '@likeness/contracts';
import { Users } from 'lucide-react';
import { useAdminUsers } from '../api/get-admin-users';
import { useListFilters } from '../hooks/use-list-filters';
import type { CsvColumn } from '../utils/csv';
import { formatCount, formatRelativeTime } from '../utils/format';
import { AdminList, type AdminColumn } from './admin-list';
import { ListSearch, ListSelect, sortOptions, TimeCell } from './list-controls';
import { UserLink } from './user-link';

const csvColumns: readonly CsvColumn<AdminUser>[] = [
  { header: 'id', value: (user) => user.id },
  { header: 'username', value: (user) => user.username },
  { header: 'email', value: (user) => user.email },
  { header: 'role', value: (user) => user.role },
  { header: 'credits', value: (user) => user.credits },
  { header: 'createdAt', value: (user) => user.createdAt },
];

/** SPEC §2 Users: id, username, email, credits, created as relative time; a row opens the user. */
export function UsersTab({ onOpenUser }: { onOpenUser: (userId: number) => void }) {
  const list = useListFilters({});
  const query = useAdminUsers(list.request);

  const columns: readonly AdminColumn<AdminUser>[] = [
    { header: 'ID', cell: (user) => user.id, className: 'w-16 tabular-nums text-muted-foreground' },
    {
      header: 'Username',
      cell: (user) => (
        <UserLink userId={user.id} onOpen={onOpenUser} stretched>
          {user.username}
        </UserLink>
      ),
    },
    { header: 'Email', cell: (user) => <span className="wrap-anywhere">{user.email}</span> },
    { header: 'Credits', cell: (user) => formatCount(user.credits), className: 'text-right tabular-nums' },
    {
      header: 'Created',
      cell: (user) => <TimeCell iso={user.createdAt}>{formatRelativeTime(user.createdAt)}</TimeCell>,
    },
  ];

  return (
    <AdminList
      label="Users"
      query={query}
      pages={list.pages}
      columns={columns}
      rowKey={(user) => user.id}
      csv={{ name: 'users', columns: csvColumns }}
      filtered={list.filtered}
      empty={{ icon: Users, title: 'No users yet', description: 'People who sign up will be listed here.' }}
      toolbar={
        <>
          <ListSearch
            id="admin-users-search"
            label="Search users"
            placeholder="Username, email or id"
            value={list.search}
            onChange={list.setSearch}
          />
          <ListSelect
            id="admin-users-sort"
            label="Order"
            value={list.sort}
            onChange={list.setSort}
            options={sortOptions}
          />
        </>
      }
    />
  );
}

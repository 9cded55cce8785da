import { useSearchParams } from 'react-router';

/**
 * A screen's open tab kept in `?tab=` (so a reload or a shared link opens it); the first tab is
 * the bare URL, and anything unknown opens the first tab.
 */
export function useTabParam<TTab extends string>(
  tabs: readonly { value: TTab }[],
  first: TTab,
): [TTab, (next: string) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('tab');
  const tab = tabs.find((candidate) => candidate.value === requested)?.value ?? first;

  const selectTab = (next: string) => {
    setSearchParams(
      (params) => {
        if (next === first) params.delete('tab');
        else params.set('tab', next);
        return params;
      },
      { replace: true },
    );
  };
  return [tab, selectTab];
}

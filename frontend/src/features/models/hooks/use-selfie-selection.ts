import { SELFIE_LIMITS, type UploadedImage } from '@likeness/contracts';
import { useCallback, useMemo, useState } from 'react';

export interface SelfieSelection {
  /** The chosen selfies still listed, in list order (what a training would send). */
  selectedIds: number[];
  isSelected: (id: number) => boolean;
  toggle: (id: number) => void;
  /** SPEC §5: chooses the first 20 listed selfies (and only those). */
  selectAll: () => void;
  clear: () => void;
  /** Every one of the first 20 is chosen: the picker then offers "Clear All". */
  allSelected: boolean;
}

/**
 * The selfies chosen for a training. The models page owns it: the picker changes it, the
 * training card reads it. A selfie that is deleted drops out on its own.
 */
export function useSelfieSelection(images: readonly UploadedImage[] | undefined): SelfieSelection {
  const [chosen, setChosen] = useState<ReadonlySet<number>>(() => new Set());

  const selectedIds = useMemo(
    () => (images ?? []).filter((image) => chosen.has(image.id)).map((image) => image.id),
    [images, chosen],
  );
  const firstIds = useMemo(() => (images ?? []).slice(0, SELFIE_LIMITS.selectAll).map((image) => image.id), [images]);

  const isSelected = useCallback((id: number) => chosen.has(id), [chosen]);
  const toggle = useCallback((id: number) => {
    setChosen((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  }, []);
  const selectAll = useCallback(() => setChosen(new Set(firstIds)), [firstIds]);
  const clear = useCallback(() => setChosen(new Set()), []);

  return {
    selectedIds,
    isSelected,
    toggle,
    selectAll,
    clear,
    allSelected: firstIds.length > 0 && firstIds.every((id) => chosen.has(id)),
  };
}

import { useCallback, type RefCallback } from 'react';

/**
 * A ref that shows a local file (e.g. a preview before upload) in an <img>: a blob: URL made when
 * the element is attached and revoked when it goes or the file changes. Set on the element itself,
 * so the URL lives exactly as long as something shows it and no extra render waits for it.
 */
export function useObjectUrlRef(file: Blob): RefCallback<HTMLImageElement> {
  return useCallback(
    (image: HTMLImageElement | null) => {
      if (!image) return;
      const url = URL.createObjectURL(file);
      image.src = url;
      return () => URL.revokeObjectURL(url);
    },
    [file],
  );
}

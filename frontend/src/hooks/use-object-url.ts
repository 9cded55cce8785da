import { useEffect, useState } from 'react';

/** A blob: URL for a local file (e.g. a preview before upload), revoked when the file changes or the caller unmounts. */
export function useObjectUrl(file: Blob): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    const next = URL.createObjectURL(file);
    setUrl(next);
    return () => {
      URL.revokeObjectURL(next);
      setUrl(undefined);
    };
  }, [file]);
  return url;
}

import { imageFormatSchema, type ImageFormat } from '@likeness/contracts';
import { useCallback, useState } from 'react';

/** SPEC §3: the user's outputFormat customization setting, kept in browser storage. */
export const OUTPUT_FORMAT_STORAGE_KEY = 'likeness-output-format';
/** SPEC §3: the customization default. */
export const DEFAULT_OUTPUT_FORMAT: ImageFormat = 'png';

export const OUTPUT_FORMAT_LABELS: Record<ImageFormat, string> = { png: 'PNG', jpeg: 'JPEG', webp: 'WebP' };

function readStoredFormat(): ImageFormat {
  try {
    const parsed = imageFormatSchema.safeParse(window.localStorage.getItem(OUTPUT_FORMAT_STORAGE_KEY));
    return parsed.success ? parsed.data : DEFAULT_OUTPUT_FORMAT;
  } catch {
    return DEFAULT_OUTPUT_FORMAT;
  }
}

/** The format downloads are converted to, remembered across visits. */
export function useOutputFormat(): [ImageFormat, (format: ImageFormat) => void] {
  const [format, setFormatState] = useState(readStoredFormat);
  const setFormat = useCallback((next: ImageFormat) => {
    try {
      window.localStorage.setItem(OUTPUT_FORMAT_STORAGE_KEY, next);
    } catch {
      // Storage can be blocked (private mode); the choice still applies for this visit.
    }
    setFormatState(next);
  }, []);
  return [format, setFormat];
}

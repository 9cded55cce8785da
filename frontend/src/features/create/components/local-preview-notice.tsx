import { FlaskConical } from 'lucide-react';

/** Without an inference provider the images are local previews, not AI portraits: say so plainly. */
export function LocalPreviewNotice() {
  return (
    <div className="flex items-start gap-2.5 rounded-xl border border-sky-200 bg-sky-50 p-3 text-sm leading-relaxed text-sky-950 dark:border-sky-900 dark:bg-sky-950/40 dark:text-sky-50">
      <FlaskConical className="mt-0.5 size-4 shrink-0 text-sky-600 dark:text-sky-300" aria-hidden="true" />
      <p>
        <span className="font-semibold">Local preview mode:</span> generated images are previews made locally from your
        selfies, styled after your prompt. They are not AI portraits.
      </p>
    </div>
  );
}

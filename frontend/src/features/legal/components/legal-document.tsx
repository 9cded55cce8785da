import type { ReactNode } from 'react';

/** SPEC §1: the effective date of the legal pages. */
export const LEGAL_LAST_UPDATED = 'June 14, 2025';

interface LegalDocumentProps {
  title: string;
  summary: ReactNode;
  children: ReactNode;
}

/** A legal page: title, date, a plain-words summary, then its numbered sections. */
export function LegalDocument({ title, summary, children }: LegalDocumentProps) {
  return (
    <article className="mx-auto w-full max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <header className="border-b pb-8">
        <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">{title}</h1>
        <p className="mt-3 text-sm text-muted-foreground">Last updated {LEGAL_LAST_UPDATED}</p>
        <div className="mt-6 rounded-2xl border bg-muted/50 p-5 leading-relaxed">{summary}</div>
      </header>
      <div className="mt-8 flex flex-col gap-10">{children}</div>
    </article>
  );
}

export function LegalSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="flex flex-col gap-3 leading-relaxed">
      <h2 className="text-xl font-semibold tracking-tight">{title}</h2>
      {children}
    </section>
  );
}

export function LegalList({ children }: { children: ReactNode }) {
  return <ul className="flex list-disc flex-col gap-2 pl-6 marker:text-muted-foreground">{children}</ul>;
}

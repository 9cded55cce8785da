import type { ReactNode } from 'react';

interface SectionHeadingProps {
  id: string;
  eyebrow: string;
  title: string;
  children?: ReactNode;
}

/** A landing section's centred heading: a small label, the title (the section's name) and a line of text. */
export function SectionHeading({ id, eyebrow, title, children }: SectionHeadingProps) {
  return (
    <div className="mx-auto flex max-w-2xl flex-col items-center gap-3 text-center">
      <p className="text-sm font-semibold tracking-wide text-primary uppercase">{eyebrow}</p>
      <h2 id={id} className="text-3xl font-semibold tracking-tight text-balance sm:text-4xl">
        {title}
      </h2>
      {children ? <p className="text-lg text-muted-foreground text-pretty">{children}</p> : null}
    </div>
  );
}

/** The landing page's section frame: the anchor target, spaced clear of the sticky header. */
export const sectionClasses = 'mx-auto w-full max-w-6xl scroll-mt-20 px-4 py-16 sm:px-6 sm:py-24 lg:px-8';

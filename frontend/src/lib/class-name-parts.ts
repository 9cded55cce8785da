/**
 * What `cn()` needs to know about the Tailwind classes the sources use, computed at build time
 * from tailwind-merge's full table (frontend/build-tools/class-groups.ts).
 */
export interface ClassGroups {
  /** Each class group's classes, space-separated, as they are looked up (no variants, no `!`). */
  groups: Record<string, string>;
  /** The groups a class of a group overrides, besides its own (`p-4` overrides `px-2`). */
  conflicts: Record<string, string[]>;
  /** What a class with a postfix overrides besides those (a font size with a line height overrides the leading). */
  postfixConflicts: Record<string, string[]>;
  /** Groups whose classes are looked up with their postfix too (a named container). */
  postfixLookup: string[];
  /** Variants whose position matters (`before:`, `*:`...): not sorted with the others. */
  orderSensitive: string[];
}

/** One class split as Tailwind reads it: `dark:bg-destructive/15`. */
export interface ClassNameParts {
  /** The variants before the class, in their written order: `['dark']`. */
  variants: string[];
  important: boolean;
  /** The class without its variants and `!`. */
  base: string;
  /** Where the postfix starts (its `/`), if it has one: 14. */
  postfixAt: number | undefined;
}

/**
 * Splits a class at its variants' colons and its postfix's slash, ignoring those inside
 * brackets and parentheses (an arbitrary variant or value, a CSS variable).
 */
export function classNameParts(className: string): ClassNameParts {
  const variants: string[] = [];
  let depth = 0;
  let start = 0;
  let slash: number | undefined;
  for (let index = 0; index < className.length; index += 1) {
    const character = className[index];
    if (character === '[' || character === '(') depth += 1;
    else if (character === ']' || character === ')') depth -= 1;
    else if (depth === 0 && character === ':') {
      variants.push(className.slice(start, index));
      start = index + 1;
    } else if (depth === 0 && character === '/') slash = index;
  }
  let base = className.slice(start);
  // Tailwind 4 writes `!` last; Tailwind 3's leading `!` is still read.
  const important = base.endsWith('!') || base.startsWith('!');
  if (base.endsWith('!')) base = base.slice(0, -1);
  else if (base.startsWith('!')) base = base.slice(1);
  // Counted from the class with its `!`, as tailwind-merge counts it (the tests hold `cn()` to it).
  const postfixAt = slash !== undefined && slash > start ? slash - start : undefined;
  return { variants, important, base, postfixAt };
}

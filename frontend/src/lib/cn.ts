import { clsx, type ClassValue } from 'clsx';
import CLASS_GROUPS from 'virtual:class-groups';
import { classNameParts } from './class-name-parts';

/** Each class the sources use → its group (`px-4` → `px`), from the build's table. */
const groupOf = new Map<string, string>();
for (const [group, classes] of Object.entries(CLASS_GROUPS.groups)) {
  for (const className of classes.split(' ')) groupOf.set(className, group);
}
const postfixLookup = new Set(CLASS_GROUPS.postfixLookup);
const orderSensitive = new Set(CLASS_GROUPS.orderSensitive);

/** Variants in a canonical order (`hover:md:` is `md:hover:`), keeping arbitrary and ordered ones in place. */
function variantKey(variants: string[]): string {
  if (variants.length < 2) return variants.join(':');
  const sorted: string[] = [];
  let run: string[] = [];
  for (const variant of variants) {
    if (variant.startsWith('[') || orderSensitive.has(variant)) {
      sorted.push(...run.sort(), variant);
      run = [];
    } else run.push(variant);
  }
  return [...sorted, ...run.sort()].join(':');
}

function overriddenGroups(group: string, hasPostfix: boolean): string[] {
  const conflicts = CLASS_GROUPS.conflicts[group] ?? [];
  const postfixConflicts = hasPostfix ? CLASS_GROUPS.postfixConflicts[group] : undefined;
  return postfixConflicts ? [...conflicts, ...postfixConflicts] : conflicts;
}

/**
 * Drops each Tailwind class that a later one overrides (same group, same variants), as
 * tailwind-merge does, with its table cut at build time to the classes our sources use
 * (frontend/build-tools/class-groups.ts): `mergeClasses('px-2 py-1 p-4')` is `'p-4'`. Anything
 * else (a class the table does not hold) is kept as written.
 */
export function mergeClasses(classList: string): string {
  const taken = new Set<string>();
  const kept: string[] = [];
  // From the last class back: a class is dropped when a later one took its group.
  for (const className of classList.trim().split(/\s+/).reverse()) {
    if (!className) continue;
    const { variants, important, base, postfixAt } = classNameParts(className);
    let hasPostfix = postfixAt !== undefined;
    let group = groupOf.get(hasPostfix ? base.slice(0, postfixAt) : base);
    if (hasPostfix) {
      const withPostfix = group === undefined || postfixLookup.has(group) ? groupOf.get(base) : undefined;
      if (withPostfix !== undefined && withPostfix !== group) {
        group = withPostfix;
        hasPostfix = false;
      }
    }
    if (group === undefined) {
      kept.push(className);
      continue;
    }
    const variantId = variantKey(variants) + (important ? '!' : '');
    if (taken.has(variantId + group)) continue;
    taken.add(variantId + group);
    for (const other of overriddenGroups(group, hasPostfix)) taken.add(variantId + other);
    kept.push(className);
  }
  return kept.reverse().join(' ');
}

/** Joins class names and lets later Tailwind utilities override earlier ones. */
export function cn(...inputs: ClassValue[]): string {
  return mergeClasses(clsx(inputs));
}

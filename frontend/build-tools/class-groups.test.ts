import { join } from 'node:path';
import { twMerge } from 'tailwind-merge';
import { describe, expect, it } from 'vitest';
import { cn, mergeClasses } from '../src/lib/cn';
import { classCandidates, classCandidatesOfSources, classGroupsFor } from './class-groups';

/** The frontend's sources (vitest runs in the frontend project). */
const SOURCES = join(process.cwd(), 'src');

/** Every class in the app's sources, variants included, that tailwind-merge knows. */
function classesInSources(): string[] {
  // A class tailwind-merge knows is merged with itself; anything else is kept twice.
  return [...classCandidatesOfSources(SOURCES)].filter(
    (candidate) => twMerge(`${candidate} ${candidate}`) === candidate,
  );
}

describe('cn() with the table cut to our sources', () => {
  it('should merge every pair of the classes the sources use exactly as tailwind-merge does', () => {
    const classes = classesInSources();
    expect(classes.length).toBeGreaterThan(500);
    expect(classes).toEqual(
      expect.arrayContaining(['px-4', 'hover:bg-accent', 'focus:ring-2', 'lg:grid-cols-[1.1fr_1fr]']),
    );
    // Which class overrides which is decided pair by pair (a later class takes its group, and the
    // groups it overrides, for its variants), so agreeing on every pair is agreeing on every list.
    const disagreements: string[] = [];
    for (const first of classes) {
      for (const second of classes) {
        const list = `${first} ${second}`;
        const ours = mergeClasses(list);
        if (ours !== twMerge(list)) disagreements.push(`${list} → ${ours}, tailwind-merge: ${twMerge(list)}`);
      }
    }
    expect(disagreements.slice(0, 20)).toEqual([]);
  });

  it("should let a caller's classes override a component's, as the components rely on", () => {
    expect(cn('inline-flex h-9 px-4 py-2 text-sm', 'h-11 px-8 text-base')).toBe('inline-flex py-2 h-11 px-8 text-base');
    expect(cn('px-2 py-1', 'p-4')).toBe('p-4');
    expect(cn('p-4', 'px-2')).toBe('p-4 px-2');
    expect(cn('bg-primary hover:bg-primary/90', false, 'bg-destructive', ['hover:bg-destructive/90'])).toBe(
      'bg-destructive hover:bg-destructive/90',
    );
    expect(cn('text-sm leading-tight', 'text-lg/7')).toBe('text-lg/7');
    expect(cn('md:hover:px-2', 'hover:md:px-4')).toBe('hover:md:px-4');
  });

  it('should keep what is not a Tailwind class as written', () => {
    expect(cn('skeleton px-2', 'skeleton', 'brand-gradient px-4')).toBe('skeleton skeleton brand-gradient px-4');
    expect(mergeClasses('   ')).toBe('');
  });

  it('should hold the classes a source adds the next time the table is made', () => {
    const candidates = classCandidates(
      '<div className={cn("px-7 md:p-9", open && `rotate-45`, \'content-["a b"]\')} />',
    );
    expect([...candidates]).toEqual(expect.arrayContaining(['px-7', 'md:p-9', 'rotate-45', 'content-["a']));

    const { groups, conflicts } = classGroupsFor(['px-7', 'md:p-9', 'bg-black/60', 'leading-4', 'text-sm/6']);
    expect(groups).toMatchObject({ px: 'px-7', p: 'p-9', 'bg-color': 'bg-black', leading: 'leading-4' });
    expect(conflicts.p).toEqual(['px']);
    expect(classGroupsFor(classCandidatesOfSources(SOURCES)).groups.px).toContain('px-4');
  });
});

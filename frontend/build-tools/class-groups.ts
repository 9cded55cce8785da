import { globSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getDefaultConfig } from 'tailwind-merge';
// The lookup tailwind-merge builds from its table (a version-pinned dependency; the tests hold the
// result to twMerge itself, so a change there fails them rather than merging differently).
import { createClassGroupUtils } from 'tailwind-merge/unstable-do-not-import';
import type { Plugin } from 'vite';
import { classNameParts, type ClassGroups } from '../src/lib/class-name-parts.ts';

/** The module `src/lib/cn.ts` reads the table from. */
const MODULE_ID = 'virtual:class-groups';
const RESOLVED_ID = `\0${MODULE_ID}`;

/** What the app ships: its sources, not their tests. */
const isShippedSource = (path: string) => /\.tsx?$/.test(path) && !/\.(test|spec)\.tsx?$/.test(path);

/** The app's source files under `sources` (the frontend's `src`), absolute. */
export function shippedSources(sources: string): string[] {
  return globSync('**/*.{ts,tsx}', { cwd: sources })
    .filter((path) => isShippedSource(path) && !path.startsWith('test/'))
    .map((path) => join(sources, path));
}

/**
 * Everything in a source that may be a class: the pieces of each word between quotes, braces,
 * angle brackets, commas and semicolons, except inside square brackets (`className="px-4`,
 * `${open ? 'rotate-180' : ''}`, `content-['']`). Tailwind finds classes the same way (a class is
 * written whole in the source), so a class `cn()` can be given is found here. Words that are not
 * classes are harmless: they have no group.
 */
export function classCandidates(source: string): Set<string> {
  const candidates = new Set<string>();
  for (const word of source.split(/\s+/)) {
    let depth = 0;
    let start = 0;
    for (let index = 0; index <= word.length; index += 1) {
      const character = word[index];
      if (character === '[') depth += 1;
      else if (character === ']') depth = Math.max(0, depth - 1);
      else if (character === undefined || (depth === 0 && '"\'`{},;<>'.includes(character))) {
        if (index > start) candidates.add(word.slice(start, index));
        start = index + 1;
      }
    }
  }
  return candidates;
}

/**
 * tailwind-merge's table cut to the given classes: each string `cn()` would look up for them
 * (the class without its variants, and without or with its postfix) with its group, and the
 * conflicts between the groups that are left.
 */
export function classGroupsFor(classNames: Iterable<string>): ClassGroups {
  const config = getDefaultConfig();
  const { getClassGroupId } = createClassGroupUtils(config);
  const conflictsOf: Record<string, readonly string[] | undefined> = config.conflictingClassGroups;
  const postfixConflictsOf: Record<string, readonly string[] | undefined> = config.conflictingClassGroupModifiers;
  const postfixLookup = new Set<string>(config.postfixLookupClassGroups);
  const members = new Map<string, Set<string>>();
  const add = (lookedUp: string) => {
    const group = lookedUp ? getClassGroupId(lookedUp) : undefined;
    if (!group) return undefined;
    members.set(group, (members.get(group) ?? new Set()).add(lookedUp));
    return group;
  };
  for (const className of classNames) {
    const { base, postfixAt } = classNameParts(className);
    if (postfixAt === undefined) {
      add(base);
      continue;
    }
    // With a postfix (`bg-black/60`), the class is looked up without it (`bg-black`), and whole
    // only when that finds nothing or a group whose classes may carry one (src/lib/cn.ts).
    const group = add(base.slice(0, postfixAt));
    if (!group || postfixLookup.has(group)) add(base);
  }
  const present = (groups: readonly string[] = []) => groups.filter((group) => members.has(group));
  const nonEmpty = (entries: [string, string[]][]) => Object.fromEntries(entries.filter(([, list]) => list.length > 0));
  const sorted = [...members].sort(([first], [second]) => first.localeCompare(second));
  return {
    groups: Object.fromEntries(sorted.map(([group, classes]) => [group, [...classes].sort().join(' ')])),
    conflicts: nonEmpty(sorted.map(([group]) => [group, present(conflictsOf[group])])),
    postfixConflicts: nonEmpty(sorted.map(([group]) => [group, present(postfixConflictsOf[group])])),
    postfixLookup: present([...postfixLookup]),
    orderSensitive: [...config.orderSensitiveModifiers],
  };
}

/** Every class candidate in the app's sources under `sources`. */
export function classCandidatesOfSources(sources: string): Set<string> {
  const candidates = new Set<string>();
  for (const file of shippedSources(sources)) {
    for (const candidate of classCandidates(readFileSync(file, 'utf8'))) candidates.add(candidate);
  }
  return candidates;
}

/**
 * `virtual:class-groups`, the table `cn()` merges classes with (src/lib/cn.ts): tailwind-merge's
 * whole table is 8 KB of the first load (gzip); the part our sources use is about 3 KB. Made
 * from every source file when first imported; the dev server makes it again after a source
 * changes (a page reload picks it up).
 */
export function classGroupsPlugin(): Plugin {
  let sources = '';
  return {
    name: 'likeness:class-groups',
    configResolved: (config) => {
      sources = join(config.root, 'src');
    },
    resolveId: (source) => (source === MODULE_ID ? RESOLVED_ID : undefined),
    load: (id) =>
      id === RESOLVED_ID
        ? `export default ${JSON.stringify(classGroupsFor(classCandidatesOfSources(sources)))};`
        : undefined,
    configureServer(server) {
      server.watcher.on('all', (_event, path) => {
        if (!path.startsWith(sources) || !isShippedSource(path)) return;
        for (const environment of Object.values(server.environments)) {
          const module = environment.moduleGraph.getModuleById(RESOLVED_ID);
          if (module) environment.moduleGraph.invalidateModule(module);
        }
      });
    },
  };
}

export interface Mention {
  /** Where the "@" is. */
  start: number;
  /** Just after the fragment: the "@fragment" is text.slice(start, end). */
  end: number;
  /** What follows the "@" (may be empty). */
  query: string;
}

const isSpace = (char: string | undefined) => char !== undefined && /\s/.test(char);

/**
 * SPEC §4: the "@" mention the caret is in, if any: an "@" at the start or after a space,
 * followed by no space up to the caret. An "@" inside a word (an e-mail address) is not one.
 */
export function findMention(text: string, caret: number): Mention | null {
  let at = caret - 1;
  while (at >= 0 && text[at] !== '@' && !isSpace(text[at])) at -= 1;
  if (at < 0 || text[at] !== '@') return null;
  if (at > 0 && !isSpace(text[at - 1])) return null;
  // The fragment runs on past the caret to the end of the word, so all of it is replaced.
  let end = caret;
  while (end < text.length && !isSpace(text[end]) && text[end] !== '@') end += 1;
  return { start: at, end, query: text.slice(at + 1, caret) };
}

/** Replaces the "@fragment" with `word` and a space (unless one follows already); the caret goes after it. */
export function insertMention(text: string, mention: Mention, word: string): { text: string; caret: number } {
  const after = text.slice(mention.end);
  const inserted = isSpace(after[0]) ? word : `${word} `;
  return {
    text: text.slice(0, mention.start) + inserted + after,
    caret: mention.start + word.length + 1,
  };
}

/** The models whose name or trigger word contains the fragment, ignoring case. */
export function filterMentionModels<T extends { modelName: string; triggerWord: string }>(
  models: readonly T[],
  query: string,
): T[] {
  const needle = query.toLowerCase();
  return models.filter(
    (model) => model.triggerWord.toLowerCase().includes(needle) || model.modelName.toLowerCase().includes(needle),
  );
}

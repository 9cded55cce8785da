/** Characters a trigger word is made of (SPEC §5: letters, digits, hyphens, underscores). */
const WORD_CHAR = 'A-Za-z0-9_-';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether `prompt` holds `word` as a word of its own (not inside a longer one), ignoring case. */
export function containsTriggerWord(prompt: string, word: string): boolean {
  if (!word) return false;
  return new RegExp(`(^|[^${WORD_CHAR}])${escapeRegExp(word)}(?![${WORD_CHAR}])`, 'i').test(prompt);
}

export interface TriggerWordResult {
  prompt: string;
  /** The prompt changed: the page says "Trigger word added". */
  changed: boolean;
}

/**
 * SPEC §4, trigger-word insertion when a model is selected: an empty prompt, or one that is only
 * a trigger word (of any of the user's models, `knownWords`), becomes the model's word and a
 * space; a prompt without the word gets it in front; a prompt with it stays as it is.
 */
export function insertTriggerWord(prompt: string, word: string, knownWords: readonly string[]): TriggerWordResult {
  const trimmed = prompt.trim();
  const onlyATriggerWord = knownWords.some((known) => known.toLowerCase() === trimmed.toLowerCase());
  let next = prompt;
  if (!trimmed || onlyATriggerWord) next = `${word} `;
  else if (!containsTriggerWord(prompt, word)) next = `${word} ${prompt.trimStart()}`;
  return { prompt: next, changed: next !== prompt };
}

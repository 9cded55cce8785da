const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const SUFFIX_LENGTH = ' model Nov 23'.length;
const MODEL_NAME_MAX = 30;

function twoDigits(value: number): string {
  return String(value).padStart(2, '0');
}

/**
 * The names the train form starts with. The model name reads like a name, "Maya model Nov 23"
 * (issue 16), within SPEC §5's rule for what a user may type (3-30 letters, digits, spaces,
 * hyphens, underscores: so no apostrophe or comma); the username's underscores become spaces and
 * a long one is shortened. The trigger word stays SPEC's: the first 3 letters of the lowercased
 * username and the local time HHMM ("ada1405"), unique enough to stand out in a prompt.
 */
export function defaultModelNames(username: string, now: Date): { modelName: string; triggerWord: string } {
  const words = username.replaceAll('_', ' ').replace(/\s+/g, ' ').trim();
  const person = (words.charAt(0).toUpperCase() + words.slice(1)).slice(0, MODEL_NAME_MAX - SUFFIX_LENGTH).trim();
  const modelName = `${person} model ${MONTHS[now.getMonth()]} ${now.getDate()}`;
  const prefix = username.toLowerCase().slice(0, 3);
  const time = `${twoDigits(now.getHours())}${twoDigits(now.getMinutes())}`;
  return { modelName, triggerWord: `${prefix}${time}` };
}

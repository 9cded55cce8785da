/** A card shows the start of the prompt; the full text is in the details. */
const PREVIEW_LENGTH = 90;

export function promptPreview(promptText: string, length = PREVIEW_LENGTH): string {
  const text = promptText.trim().replace(/\s+/g, ' ');
  return text.length > length ? `${text.slice(0, length).trimEnd()}…` : text;
}

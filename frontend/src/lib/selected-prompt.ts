/** SPEC §2: the scene explorer leaves the chosen prompt here for the create page. */
export const SELECTED_PROMPT_KEY = 'selectedPrompt';

/** Remembers a prompt chosen on a public page until the create page takes it. */
export function storeSelectedPrompt(prompt: string): void {
  try {
    window.localStorage.setItem(SELECTED_PROMPT_KEY, prompt);
  } catch {
    // Storage refused (private mode, quota): the prompt is still on the clipboard.
  }
}

/** The chosen prompt, once: it is forgotten as it is read, so a later visit starts empty. */
export function takeSelectedPrompt(): string | null {
  try {
    const prompt = window.localStorage.getItem(SELECTED_PROMPT_KEY);
    window.localStorage.removeItem(SELECTED_PROMPT_KEY);
    return prompt?.trim() ? prompt.trim() : null;
  } catch {
    return null;
  }
}

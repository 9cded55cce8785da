/** Puts text on the clipboard; rejects where the browser refuses (no permission, insecure page). */
export async function copyText(text: string): Promise<void> {
  if (!navigator.clipboard?.writeText) throw new Error('The clipboard is not available');
  await navigator.clipboard.writeText(text);
}

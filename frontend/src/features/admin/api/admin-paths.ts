/**
 * `path?query` for an admin GET: the parameters that are set, in a stable order (so the URL, like
 * the query key it goes with, is the same for the same question).
 */
export function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/** `/api/admin/users/{id}` with the id filled in. */
export function withId(path: `/api/${string}`, id: number): string {
  return path.replace('{id}', encodeURIComponent(String(id)));
}

// The public pages (their own bundle, build-tools/public-build.ts) are one document each, its
// title and description written into the HTML by the prerendering: nothing to keep in step.
export function PageMetaSync() {
  return null;
}

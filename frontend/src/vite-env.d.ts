/// <reference types="vite/client" />

declare module 'virtual:class-groups' {
  /** The Tailwind classes the sources use, grouped (frontend/build-tools/class-groups.ts). */
  const classGroups: import('./lib/class-name-parts').ClassGroups;
  export default classGroups;
}

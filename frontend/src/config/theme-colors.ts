/**
 * The page background of each theme, for the browser's toolbar (`<meta name="theme-color">`) and
 * the installed app's window: index.html and the web app manifest carry the same values.
 */
export const THEME_COLORS = { light: '#fcfbfe', dark: '#0c0c16' } as const;

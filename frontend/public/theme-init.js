// Applies the stored theme (localStorage "ui-theme") before the app loads, so a dark page never flashes light.
(function () {
  try {
    var stored = localStorage.getItem('ui-theme');
    var dark = stored === 'dark' || (stored !== 'light' && window.matchMedia('(prefers-color-scheme: dark)').matches);
    document.documentElement.classList.toggle('dark', dark);
    document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
  } catch (e) {
    /* storage blocked: the app applies the default once it starts */
  }
})();

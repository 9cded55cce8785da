// The offline page (public/offline.html): try the page again on request, and by itself once the connection returns.
(function () {
  function retry() {
    window.location.reload();
  }
  document.getElementById('retry').addEventListener('click', retry);
  window.addEventListener('online', retry);
})();

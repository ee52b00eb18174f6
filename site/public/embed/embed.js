// The /embed/ page's own script, a file rather than inline: the pages' Content-Security-Policy allows
// scripts from this origin only. It gives the widget its options from the page's query string, and, in
// a frame, tells the host page how tall the page is whenever that changes, as
// `{ type: 'reviews-widget:height', height }` (postMessage), for the one line of script that sizes the
// frame (docs/site.md). The height says nothing private, so any host may read it.
(function () {
  var widget = document.querySelector('reviews-widget');
  var names = ['count', 'min-rating', 'technician', 'service', 'sort', 'theme'];
  var params = new URLSearchParams(location.search);
  for (var i = 0; i < names.length; i++) if (params.has(names[i])) widget.setAttribute(names[i], params.get(names[i]));
  if (window.parent === window || typeof ResizeObserver !== 'function') return;
  var sent = 0;
  new ResizeObserver(function () {
    var height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height !== sent) window.parent.postMessage({ type: 'reviews-widget:height', height: (sent = height) }, '*');
  }).observe(document.documentElement);
})();

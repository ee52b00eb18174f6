// The widget's options come from the /embed/ page's query string. A file of its own, not an inline
// script: the pages' Content-Security-Policy allows scripts from this origin only.
(function () {
  var widget = document.querySelector('reviews-widget');
  var names = ['count', 'min-rating', 'technician', 'service', 'sort', 'theme', 'media'];
  var params = new URLSearchParams(location.search);
  for (var i = 0; i < names.length; i++) if (params.has(names[i])) widget.setAttribute(names[i], params.get(names[i]));
})();

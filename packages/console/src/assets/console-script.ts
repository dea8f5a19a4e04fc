/**
 * The console's one script (served as a file, so the Content-Security-Policy needs no inline
 * code): it listens to the server-sent events stream and, on each change, fetches the page's own
 * address (`data-page`) again and swaps in the fresh `[data-live]` sections. Forms are never replaced, so nothing
 * an approver is typing is lost.
 */
export const CONSOLE_SCRIPT = `'use strict';
(function () {
  var root = document.documentElement;
  var url = root.getAttribute('data-events');
  var status = document.getElementById('live-status');
  var page = root.getAttribute('data-page') || window.location.pathname;
  if (!url || typeof EventSource !== 'function') return;
  // After a form post the address bar shows the form's action: show the page's own address, so
  // a reload never posts the form again.
  if (page !== window.location.pathname && window.history && window.history.replaceState) {
    window.history.replaceState(null, '', page);
  }
  var busy = false;
  var again = false;
  function say(text) { if (status) status.textContent = text; }
  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    fetch(page, { credentials: 'same-origin', cache: 'no-store', headers: { Accept: 'text/html' } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (html === null) return;
        var fresh = new DOMParser().parseFromString(html, 'text/html');
        var sections = document.querySelectorAll('[data-live]');
        for (var i = 0; i < sections.length; i++) {
          var next = fresh.getElementById(sections[i].id);
          if (next) sections[i].replaceWith(document.importNode(next, true));
        }
        root.setAttribute('data-refreshed', String(Date.now()));
      })
      .catch(function () { say('Live updates paused: reload the page.'); })
      .then(function () { busy = false; if (again) { again = false; refresh(); } });
  }
  var source = new EventSource(url);
  source.addEventListener('open', function () { say('Live updates on.'); root.setAttribute('data-live-ready', 'true'); });
  source.addEventListener('change', refresh);
  source.addEventListener('error', function () { say('Reconnecting…'); });
})();
`;

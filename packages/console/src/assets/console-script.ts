/**
 * The console's one script (served as a file, so the Content-Security-Policy needs no inline
 * code): it listens to the server-sent events stream and, on each change, fetches the page's own
 * address (`data-page`) again and swaps in the fresh `[data-live]` sections. Forms are never
 * replaced, so nothing an approver is typing is lost; but a form the fresh page no longer offers
 * (the item was decided), offers with its button disabled (this approver can no longer grant), or
 * that is gone with its page (404: removed, or no longer authorized) gets its buttons disabled here
 * too, with a short note saying why. Only buttons this script disabled are enabled again.
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
    var gone = false;
    fetch(page, { credentials: 'same-origin', cache: 'no-store', headers: { Accept: 'text/html' } })
      .then(function (response) {
        // 404: the item is gone, or this approver may no longer see it; other failures are passing.
        gone = response.status === 404;
        return response.ok || gone ? response.text() : null;
      })
      .then(function (html) {
        if (html === null) return;
        var fresh = new DOMParser().parseFromString(html, 'text/html');
        var sections = document.querySelectorAll('[data-live]');
        for (var i = 0; i < sections.length; i++) {
          var next = fresh.getElementById(sections[i].id);
          if (next) sections[i].replaceWith(document.importNode(next, true));
        }
        markStaleForms(fresh, gone);
        root.setAttribute('data-refreshed', String(Date.now()));
      })
      .catch(function () { say('Live updates paused: reload the page.'); })
      .then(function () { busy = false; if (again) { again = false; refresh(); } });
  }
  function counterpart(form, fresh) {
    var action = form.getAttribute('action');
    var forms = fresh.querySelectorAll('main form[action]');
    for (var i = 0; i < forms.length; i++) if (forms[i].getAttribute('action') === action) return forms[i];
    return null;
  }
  function submitsOf(form) {
    return form.querySelectorAll('button:not([type]), button[type="submit"], input[type="submit"]');
  }
  function isOffered(form, fresh) {
    var next = counterpart(form, fresh);
    if (next === null) return false;
    var buttons = submitsOf(next);
    for (var i = 0; i < buttons.length; i++) if (!buttons[i].disabled) return true;
    return buttons.length === 0;
  }
  function markStaleForms(fresh, gone) {
    var forms = document.querySelectorAll('main form[action]');
    var stale = [];
    var closed = true;
    for (var i = 0; i < forms.length; i++) {
      var offered = isOffered(forms[i], fresh);
      if (counterpart(forms[i], fresh) !== null) closed = false;
      var buttons = submitsOf(forms[i]);
      for (var j = 0; j < buttons.length; j++) {
        if (!offered && !buttons[j].disabled) {
          buttons[j].disabled = true;
          buttons[j].setAttribute('data-stale', buttons[j].getAttribute('aria-describedby') || '');
          buttons[j].setAttribute('aria-describedby', 'stale-note');
        } else if (offered && buttons[j].hasAttribute('data-stale')) {
          var was = buttons[j].getAttribute('data-stale');
          buttons[j].disabled = false;
          buttons[j].removeAttribute('data-stale');
          if (was) buttons[j].setAttribute('aria-describedby', was);
          else buttons[j].removeAttribute('aria-describedby');
        }
      }
      if (!offered) stale.push(forms[i]);
    }
    var note = document.getElementById('stale-note');
    if (stale.length === 0) { if (note) note.remove(); return; }
    if (!note) {
      note = document.createElement('p');
      note.id = 'stale-note';
      note.className = 'note stale-note';
      note.setAttribute('role', 'status');
      var anchor = stale[0].closest('.forms') || stale[0];
      anchor.parentNode.insertBefore(note, anchor);
    }
    note.textContent = gone
      ? 'This request is no longer available to you, so its buttons are off. What you typed is kept.'
      : closed
        ? 'This request was decided while this page was open (see Status above), so its buttons are off. What you typed is kept.'
        : 'You can no longer do this here: see Status and the notes above. What you typed is kept.';
  }
  var source = new EventSource(url);
  source.addEventListener('open', function () { say('Live updates on.'); root.setAttribute('data-live-ready', 'true'); });
  source.addEventListener('change', refresh);
  source.addEventListener('error', function () { say('Reconnecting…'); });
})();
`;

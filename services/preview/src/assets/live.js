// Weft live preview: follows /preview/:id/changes and morphs changed sections in place.
// At most 4 updates a second; changes arriving meanwhile are coalesced (latest wins).
// Keeps scroll, focus, <details open>, checked radios/tabs and input values.
(function () {
  'use strict';
  var main = document.querySelector('main.weft-page');
  if (!main) return;
  var draftId = main.getAttribute('data-draft-id') || '';
  var ticket = new URLSearchParams(location.search).get('ticket') || '';
  var version = Number(main.getAttribute('data-version') || '0');
  var MIN_GAP = 250;
  var pending = null;
  var timer = 0;
  var busy = false;
  var lastFlush = 0;
  var base = '/preview/' + encodeURIComponent(draftId);
  var q = function (extra) { return '?ticket=' + encodeURIComponent(ticket) + (extra || ''); };

  function keyOf(n) {
    if (n.nodeType !== 1) return null;
    return n.getAttribute('data-section-id') || n.getAttribute('data-component-id') || n.id || null;
  }

  function syncAttrs(from, to) {
    var i, a;
    for (i = from.attributes.length - 1; i >= 0; i--) {
      a = from.attributes[i];
      if (!to.hasAttribute(a.name)) from.removeAttribute(a.name);
    }
    for (i = 0; i < to.attributes.length; i++) {
      a = to.attributes[i];
      if (from.getAttribute(a.name) !== a.value) from.setAttribute(a.name, a.value);
    }
  }

  function morphEl(from, to) {
    var tag = from.tagName;
    // Viewer state lives in properties; attribute syncing must not reset it.
    var open = tag === 'DETAILS' ? from.open : null;
    var checked = tag === 'INPUT' ? from.checked : null;
    var value = (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') ? from.value : null;
    syncAttrs(from, to);
    if (tag !== 'TEXTAREA') morphChildren(from, to);
    if (open !== null) from.open = open;
    if (checked !== null && (from.type === 'radio' || from.type === 'checkbox')) from.checked = checked;
    if (value !== null && from.value !== value) from.value = value;
  }

  function morphChildren(from, to) {
    var keyed = {};
    var n = from.firstChild, k;
    while (n) { k = keyOf(n); if (k) keyed[k] = n; n = n.nextSibling; }
    var cur = from.firstChild;
    var kids = Array.prototype.slice.call(to.childNodes);
    for (var i = 0; i < kids.length; i++) {
      var t = kids[i];
      var tk = keyOf(t);
      var match = null;
      if (tk && keyed[tk] && keyed[tk].tagName === t.tagName) { match = keyed[tk]; delete keyed[tk]; }
      else if (!tk && cur && !keyOf(cur) && cur.nodeType === t.nodeType && (cur.nodeType !== 1 || cur.tagName === t.tagName)) match = cur;
      if (match) {
        if (match === cur) cur = cur.nextSibling; else from.insertBefore(match, cur);
        if (match.nodeType === 1) morphEl(match, t);
        else if (match.nodeValue !== t.nodeValue) match.nodeValue = t.nodeValue;
      } else {
        from.insertBefore(document.importNode(t, true), cur);
      }
    }
    while (cur) { var next = cur.nextSibling; from.removeChild(cur); cur = next; }
  }

  function sectionEl(id) {
    var kids = main.children;
    for (var i = 0; i < kids.length; i++) if (kids[i].getAttribute('data-section-id') === id) return kids[i];
    return null;
  }

  function parse(html) {
    var tpl = document.createElement('template');
    tpl.innerHTML = html;
    var el = tpl.content.firstElementChild;
    return el && el.tagName === 'SECTION' ? el : null;
  }

  function reorder(order) {
    var want = {};
    var prev = null;
    for (var i = 0; i < order.length; i++) {
      var el = sectionEl(order[i]);
      if (!el || want[order[i]]) continue;
      want[order[i]] = true;
      var spot = prev ? prev.nextElementSibling : main.firstElementChild;
      if (spot !== el) main.insertBefore(el, spot);
      prev = el;
    }
    Array.prototype.slice.call(main.children).forEach(function (c) {
      var id = c.getAttribute('data-section-id');
      if (id && !want[id]) main.removeChild(c);
    });
  }

  function fetchSection(id, v) {
    return fetch(base + '/sections/' + encodeURIComponent(id) + q('&version=' + v), { credentials: 'same-origin', cache: 'no-store' })
      .then(function (r) {
        if (r.status === 403) askTicket();
        return r.status === 204 || r.status === 404 ? null : r.ok ? r.text() : Promise.reject(new Error('HTTP ' + r.status));
      });
  }

  function flush() {
    timer = 0;
    if (busy || !pending) return;
    var c = pending;
    pending = null;
    busy = true;
    lastFlush = Date.now();
    var ids = Object.keys(c.sections);
    // A section no longer in the order was removed: drop it, nothing to fetch (it would be a 404).
    var gone = function (id) { return c.order !== null && c.order !== undefined && c.order.indexOf(id) < 0; };
    Promise.all(ids.map(function (id) { return gone(id) ? Promise.resolve([id, null]) : fetchSection(id, c.version).then(function (h) { return [id, h]; }); }))
      .then(function (got) {
        var sx = window.scrollX, sy = window.scrollY;
        var active = document.activeElement;
        got.forEach(function (pair) {
          var id = pair[0], html = pair[1];
          var el = sectionEl(id);
          if (html === null) { if (el) el.parentNode.removeChild(el); return; }
          var next = parse(html);
          if (!next) return;
          if (el) morphEl(el, next);
          else main.appendChild(document.importNode(next, true));
        });
        if (c.order) reorder(c.order);
        if (typeof c.title === 'string' && c.title) document.title = c.title;
        if (c.version > version) version = c.version;
        main.setAttribute('data-version', String(version));
        if (active && active !== document.activeElement && document.contains(active) && active.focus) active.focus({ preventScroll: true });
        window.scrollTo(sx, sy);
        loadRuntime();
        window.dispatchEvent(new CustomEvent('weft:updated', { detail: { version: version, sections: ids } }));
      })
      .catch(function () {
        // Put the work back: the next change or the retry (2 s on) picks it up.
        pending = merge(pending, c);
        lastFlush = Date.now() + 2000;
      })
      .then(function () { busy = false; schedule(); });
  }

  // A change that makes the page interactive brings the interaction runtime in (same origin, the
  // URL the server named; CSP script-src 'self' allows it). Once loaded it follows weft:updated.
  function loadRuntime() {
    var src = main.getAttribute('data-weft-runtime');
    if (!src || src.charAt(0) !== '/' || src.charAt(1) === '/' || !document.querySelector('script[data-weft-logic]')) return;
    var scripts = document.scripts;
    for (var i = 0; i < scripts.length; i++) if (scripts[i].getAttribute('src') === src) return;
    var s = document.createElement('script');
    s.src = src;
    document.head.appendChild(s);
  }

  function merge(a, b) {
    if (!a) return b;
    var s = {};
    Object.keys(a.sections).forEach(function (k) { s[k] = true; });
    Object.keys(b.sections).forEach(function (k) { s[k] = true; });
    return { version: Math.max(a.version, b.version), sections: s, order: b.order || a.order, title: typeof b.title === 'string' ? b.title : a.title };
  }

  function schedule() {
    if (timer || busy || !pending) return;
    timer = setTimeout(flush, Math.max(0, lastFlush + MIN_GAP - Date.now()));
  }

  // In the Build view the parent page hands this frame fresh tickets (they last 10 minutes); a
  // refused one (expired, or signed by a server that restarted with another key) is asked for
  // again, and the stream reopened from the version this page has.
  var inFrame = window.parent !== window;
  function askTicket() { if (inFrame) window.parent.postMessage({ type: 'weft:ticket-needed' }, location.origin); }
  window.addEventListener('message', function (e) {
    if (e.origin !== location.origin || e.source !== window.parent || !e.data || e.data.type !== 'weft:ticket' || typeof e.data.ticket !== 'string') return;
    ticket = e.data.ticket;
    var actions = main.getAttribute('data-weft-actions');
    if (actions) main.setAttribute('data-weft-actions', actions.replace(/([?&]ticket=)[^&]*/, '$1' + encodeURIComponent(ticket)));
    if (es.readyState === 2) openStream();
    schedule();
  });

  var es;
  function openStream() {
    es = new EventSource(base + '/changes' + q('&after=' + version));
    es.onmessage = onChange;
    // CLOSED: the server refused the stream (EventSource does not retry a 403); other errors retry by themselves.
    es.onerror = function () { if (es.readyState === 2) askTicket(); };
  }
  function onChange(e) {
    var c;
    try { c = JSON.parse(e.data); } catch (_) { return; }
    if (!c || typeof c.version !== 'number' || !Array.isArray(c.sections)) return;
    var s = {};
    c.sections.forEach(function (id) { if (typeof id === 'string') s[id] = true; });
    pending = merge(pending, { version: c.version, sections: s, order: Array.isArray(c.order) ? c.order : null, title: c.title });
    schedule();
  }
  openStream();
})();

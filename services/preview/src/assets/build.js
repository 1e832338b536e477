// Weft Build view: live preview + activity feed + versions scrubber + undo/redo. No framework.
// The token is asked once, kept in sessionStorage, and only ever sent in Authorization headers.
// Hooks for collaboration (presence avatars, agent ghosts): window.weftBuild, and the
// #weft-presence / #weft-ghosts containers; weft.presence / weft.ghost stream events call them.
(function () {
  'use strict';
  var body = document.body;
  var draftId = body.getAttribute('data-draft-id') || '';
  var api = (body.getAttribute('data-session-url') || '') + '/v1/drafts/' + encodeURIComponent(draftId);
  var KEY = 'weft.token';
  var $ = function (id) { return document.getElementById(id); };
  var token = sessionStorage.getItem(KEY) || '';
  var head = 0;
  var viewing = null; // null = live, else a past version
  var canWrite = false;
  var streamAbort = null;
  var versionsTimer = 0;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function auth(extra) {
    var h = { authorization: 'Bearer ' + token };
    for (var k in extra || {}) h[k] = extra[k];
    return h;
  }
  // The draft was deleted (or never existed for this token): say so, and stop reconnecting.
  var deleted = false;
  function gone() {
    deleted = true;
    if (streamAbort) streamAbort.abort();
    status('deleted', 'wb-gone');
    canWrite = false;
    $('wb-undo').disabled = true;
    $('wb-redo').disabled = true;
    document.dispatchEvent(new CustomEvent('weft:gone'));
  }
  function status(text, cls) { var s = $('wb-status'); s.textContent = text; s.className = 'wb-status ' + (cls || ''); }
  function time(ts) { var d = ts ? new Date(ts) : new Date(); return d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' }); }

  // ---- feed -------------------------------------------------------------------------------
  var feed = $('wb-feed');
  // Versions already in the feed, by source: the history from the log and the live stream meet.
  var seen = { history: {}, live: {} };
  function addFeed(item) {
    if (item.version && item.kind !== 'turn') {
      var mine = item.history ? seen.history : seen.live;
      var other = item.history ? seen.live : seen.history;
      if (other[item.version]) return;
      mine[item.version] = true;
    }
    var li = el('li', 'wb-item wb-' + (item.kind || 'info') + (item.mine ? ' wb-mine' : ''));
    var top = el('div', 'wb-item-top');
    top.appendChild(el('span', 'wb-who', item.actor || 'system'));
    if (item.badge) top.appendChild(el('span', 'wb-badge wb-badge-' + item.status, item.badge));
    top.appendChild(el('span', 'wb-what', item.title || ''));
    if (item.version) top.appendChild(el('span', 'wb-v', 'v' + item.version));
    top.appendChild(el('time', 'wb-time', time(item.at)));
    li.appendChild(top);
    if (item.body) li.appendChild(el('div', 'wb-body', item.body));
    (item.lines || []).slice(0, 6).forEach(function (l) {
      var row = el('div', 'wb-line');
      if (l.path) row.appendChild(el('code', 'wb-path', l.path));
      row.appendChild(el('span', '', l.text));
      li.appendChild(row);
    });
    if ((item.lines || []).length > 6) li.appendChild(el('div', 'wb-line wb-muted', '… ' + (item.lines.length - 6) + ' more'));
    // History (the log's steps, the stored activity) goes below what the live stream already
    // showed, newest first: two histories load side by side, so each item finds its place by time.
    var at = typeof item.at === 'number' ? item.at : (Date.parse(item.at) || 0);
    li.setAttribute('data-at', String(at));
    if (item.history) {
      var after = null;
      for (var c = feed.lastElementChild; c && c.hasAttribute('data-history') && Number(c.getAttribute('data-at')) < at; c = c.previousElementSibling) after = c;
      li.setAttribute('data-history', '');
      feed.insertBefore(li, after);
    } else feed.insertBefore(li, feed.firstChild);
    while (feed.children.length > 300) feed.removeChild(feed.lastChild);
  }

  // ---- reported activity (docs/api.md "Activity"): agents' validation / operation / agent
  // entries and the system's request / persistence ones; the draft keeps the newest 120.
  var activitySeen = {};
  function addActivity(a, history) {
    if (!a || typeof a.id !== 'string' || activitySeen[a.id]) return;
    activitySeen[a.id] = true;
    addFeed({
      kind: 'act', actor: a.actor === 'weft' ? 'system' : a.actor, title: '', body: a.label, at: a.at, history: history,
      badge: a.kind + ' · ' + a.status, status: a.status, lines: a.detail ? [{ text: a.detail }] : [],
    });
  }
  function loadActivity() {
    fetch(api + '/activity', { headers: auth(), cache: 'no-store' })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (j) { if (j && Array.isArray(j.activities)) j.activities.forEach(function (a) { addActivity(a, true); }); })
      .catch(function () { /* the live stream still shows new entries */ });
  }

  function isOrderBookkeeping(n) { return n.rule === 'rewrote_path' && /^\/order\/(-|\d+)$/.test(n.path || ''); }

  function onEvent(ev) {
    // Every event also goes to the editor's Build chat (agent runs: notes, steps, ghosts).
    document.dispatchEvent(new CustomEvent('weft:agui', { detail: ev }));
    var meta = (ev.metadata && ev.metadata.weft) || {};
    var v = meta.version;
    switch (ev.type) {
      case 'STATE_SNAPSHOT': setHead(v || 0); break;
      case 'STATE_DELTA':
        setHead(v);
        if (me && meta.actor === me) mine++;
        clearTimeout(versionsTimer);
        versionsTimer = setTimeout(loadVersions, 1500);
        addFeed({ kind: 'applied', actor: meta.actor, title: hooks.describe ? hooks.describe({ version: v, actor: meta.actor, ops: ev.delta }) : 'applied ' + ev.delta.length + ' op' + (ev.delta.length === 1 ? '' : 's'), version: v, at: ev.timestamp });
        document.dispatchEvent(new CustomEvent('weft:step', { detail: { version: v, actor: meta.actor, ops: ev.delta } }));
        break;
      case 'RUN_STARTED': addFeed({ kind: 'turn', actor: meta.actor, title: 'turn started', version: v, at: ev.timestamp }); break;
      case 'RUN_FINISHED': addFeed({ kind: 'turn', actor: meta.actor, title: 'turn finished', version: v, at: ev.timestamp }); loadVersions(); break;
      // NOT_FOUND: the server ends the stream of a deleted draft with it (not a turn's failure).
      case 'RUN_ERROR': addFeed({ kind: 'refused', title: ev.code === 'NOT_FOUND' ? ev.message : 'turn failed: ' + ev.message, at: ev.timestamp }); if (ev.code === 'NOT_FOUND') gone(); break;
      case 'CUSTOM':
        // The server keeping order in step with an added or removed section is what the editor
        // relies on, not a repair of anyone's mistake: not worth a feed entry.
        if (ev.name === 'weft.repairs') ev.value = ev.value.filter(function (n) { return !isOrderBookkeeping(n); });
        if (ev.name === 'weft.repairs' && ev.value.length === 0) break;
        if (ev.name === 'weft.repairs') addFeed({ kind: 'repair', actor: meta.actor, title: 'repaired ' + ev.value.length + ' thing' + (ev.value.length === 1 ? '' : 's') + ' in it', version: v, at: ev.timestamp, lines: ev.value.map(function (n) { return { path: n.path, text: n.message }; }) });
        else if (ev.name === 'weft.refused') addFeed({ kind: 'refused', actor: meta.actor, title: 'refused ' + ev.value.length + ' op' + (ev.value.length === 1 ? '' : 's'), version: v, at: ev.timestamp, lines: ev.value.map(function (r) { return { path: r.path, text: r.message }; }) });
        else if (ev.name === 'weft.presence') hooks.setPresence(ev.value);
        else if (ev.name === 'weft.ghost') hooks.ghost(ev.value);
        else if (ev.name === 'weft.activity') addActivity(ev.value, false);
        break;
    }
  }

  // ---- stream (fetch + ReadableStream so the token rides in a header) ---------------------
  function stream(after) {
    if (streamAbort) streamAbort.abort();
    var ctl = new AbortController();
    streamAbort = ctl;
    var headers = auth({ accept: 'text/event-stream' });
    if (after) headers['last-event-id'] = String(after);
    var answered = false; // a response came (CORS let it through), whatever its status
    fetch(api + '/stream', { headers: headers, signal: ctl.signal, cache: 'no-store' }).then(function (res) {
      answered = true;
      if (res.status === 401) { signOut('That token is unknown, revoked or expired.'); return; }
      if (res.status === 404) { gone(); return; }
      if (!res.ok || !res.body) throw new Error('HTTP ' + res.status);
      if (blocked) { blocked = false; clearNotice('bad'); } // the session now allows this origin
      if (viewing === null) status('live', 'wb-ok');
      var reader = res.body.getReader();
      var dec = new TextDecoder();
      var buf = '';
      // Stored activity is read once this connection delivers its first event (it is then
      // registered for live entries), so nothing written in between is missed; ids dedupe.
      var first = true;
      var pump = function () {
        return reader.read().then(function (r) {
          if (r.done) throw new Error('stream ended');
          buf += dec.decode(r.value, { stream: true });
          var i;
          while ((i = buf.indexOf('\n\n')) >= 0) {
            var chunk = buf.slice(0, i); buf = buf.slice(i + 2);
            var data = chunk.split('\n').filter(function (l) { return l.indexOf('data:') === 0; }).map(function (l) { return l.slice(5).trim(); }).join('\n');
            if (data) { try { onEvent(JSON.parse(data)); } catch (e) { /* one bad event never stops the feed */ } }
            if (data && first) { first = false; loadActivity(); }
          }
          return pump();
        });
      };
      return pump();
    }).catch(function (e) {
      if (ctl.signal.aborted || deleted) return;
      if (!blocked) status('reconnecting…', 'wb-warn');
      if (!answered) explainUnreachable();
      setTimeout(function () { stream(head); }, 1500);
    });
  }
  // The session on another origin (WEFT_SESSION_URL) that does not list this page's origin in
  // WEFT_CORS_ORIGINS: the browser blocks every call and says only "Failed to fetch", as it does
  // for a session that is down. A no-cors probe tells them apart: it resolves (opaque) only if the
  // server answered, so a blocked page names the fix instead of "reconnecting…" forever.
  var sessionOrigin = (function () { try { return new URL(api, location.href).origin; } catch (e) { return location.origin; } })();
  var blocked = false;
  var probing = false;
  function explainUnreachable() {
    if (blocked || probing || sessionOrigin === location.origin) return;
    probing = true;
    fetch(sessionOrigin + '/healthz', { mode: 'no-cors', cache: 'no-store' }).then(function () {
      blocked = true;
      status('blocked by the session (CORS)', 'wb-gone');
      notice('The session at ' + sessionOrigin + ' answers but does not let this page read it: add ' + location.origin +
        ' to WEFT_CORS_ORIGINS on the session, or serve the Build view and the session on one origin.', 'bad', true);
    }, function () { /* down, not blocked: "reconnecting…" is right */ }).then(function () { probing = false; });
  }

  // ---- versions and scrubber --------------------------------------------------------------
  var scrub = $('wb-scrub');
  function setHead(v) {
    if (typeof v !== 'number' || v < head) return;
    var atHead = Number(scrub.value) === head;
    head = v;
    scrub.max = String(head);
    if (atHead && viewing === null) scrub.value = String(head);
    $('wb-version').textContent = viewing === null ? 'version ' + head : 'version ' + viewing + ' of ' + head;
  }
  // Versions from the log: who made each, agent turns grouped with what they did.
  function loadVersions() {
    fetch(api + '/events?after=0&limit=1', { headers: auth(), cache: 'no-store' }).then(function (r) { return r.ok ? r.json() : null; }).then(function (first) {
      if (!first) return null;
      var from = Math.max(0, first.head - 60);
      return fetch(api + '/events?after=' + from + '&limit=60', { headers: auth(), cache: 'no-store' }).then(function (r) { return r.ok ? r.json() : null; });
    }).then(function (j) {
      if (!j) return;
      var groups = [];
      j.steps.forEach(function (st) {
        var last = groups[groups.length - 1];
        if (last && st.turnId && last.turnId === st.turnId) { last.steps.push(st); return; }
        groups.push({ turnId: st.turnId, actor: st.actor, kind: st.actorKind, steps: [st] });
      });
      var list = $('wb-versions');
      list.textContent = '';
      groups.reverse().forEach(function (g) {
        var top = g.steps[g.steps.length - 1];
        var li = el('li');
        var b = el('button', 'wb-ver', '');
        b.type = 'button';
        b.setAttribute('data-version', String(top.version));
        b.appendChild(el('strong', '', 'v' + top.version));
        b.appendChild(el('span', 'wb-ver-who', ' ' + top.actor + (g.turnId ? ' · turn' : '')));
        var said = g.steps.length > 1
          ? g.steps.length + ' steps: ' + (hooks.describe ? hooks.describe(g.steps[0]) : '') + '…'
          : (hooks.describe ? hooks.describe(top) : top.ops.length + ' op(s)');
        b.appendChild(el('span', 'wb-ver-what', said));
        b.addEventListener('click', function () { show(top.version); });
        li.appendChild(b);
        list.appendChild(li);
      });
    }).catch(function () { /* the session is unreachable for now: the next version or turn's end loads them again */ });
  }
  var scrubTimer = 0;
  scrub.addEventListener('input', function () {
    clearTimeout(scrubTimer);
    scrubTimer = setTimeout(function () { show(Number(scrub.value)); }, 120);
  });
  function show(v) {
    scrub.value = String(v);
    if (v >= head) { live(); return; }
    fetch('/preview/' + encodeURIComponent(draftId) + '/render?version=' + v, { headers: auth(), cache: 'no-store' })
      .then(function (r) { return r.ok ? r.json() : Promise.reject(new Error('HTTP ' + r.status)); })
      .then(function (j) {
        viewing = j.version;
        var past = $('wb-past');
        // Server-rendered, escaped preview HTML (the same renderer as the live page).
        past.innerHTML = j.html;
        past.hidden = false;
        $('wb-frame').hidden = true;
        $('wb-overlay').hidden = true;
        highlightChanges(past, j.version);
        status('past version ' + j.version, 'wb-warn');
        $('wb-mode').textContent = 'Past version';
        $('wb-mode').className = 'wb-pill wb-pastpill';
        $('wb-back-live').hidden = false;
        $('wb-version').textContent = 'version ' + j.version + ' of ' + head;
      })
      .catch(function (e) { addFeed({ kind: 'refused', title: 'could not load version ' + v + ': ' + e.message }); });
  }
  /** Marks what version `v` changed in the past page shown (its step's ops, by section and component). */
  function highlightChanges(root, v) {
    if (v < 1) return;
    fetch(api + '/events?after=' + (v - 1) + '&limit=1', { headers: auth(), cache: 'no-store' }).then(function (r) { return r.ok ? r.json() : null; }).then(function (j) {
      if (!j || !j.steps.length || viewing !== v) return;
      var n = 0;
      j.steps[0].ops.forEach(function (op) {
        var m = /^\/sections\/([^/]+)(?:\/components\/([^/]+))?/.exec(op.path);
        if (!m) return;
        var sec = root.querySelector('[data-section-id="' + CSS.escape(m[1].replace(/~1/g, '/').replace(/~0/g, '~')) + '"]');
        if (!sec) return;
        var target = m[2] ? sec.querySelector('[data-component-id="' + CSS.escape(m[2].replace(/~1/g, '/').replace(/~0/g, '~')) + '"]') : sec;
        if (target && !target.classList.contains('wb-changed')) { target.classList.add('wb-changed'); n++; }
      });
      var first = root.querySelector('.wb-changed');
      if (first) first.scrollIntoView({ block: 'nearest' });
      $('wb-version').textContent = 'version ' + v + ' of ' + head + (n ? ' · ' + n + ' change' + (n === 1 ? '' : 's') + ' highlighted' : '');
    });
  }
  function live() {
    viewing = null;
    $('wb-overlay').hidden = false;
    if (token) status('live', 'wb-ok');
    $('wb-past').hidden = true;
    $('wb-past').textContent = '';
    $('wb-frame').hidden = false;
    $('wb-mode').textContent = 'Live';
    $('wb-mode').className = 'wb-pill wb-live';
    $('wb-back-live').hidden = true;
    scrub.value = String(head);
    $('wb-version').textContent = 'version ' + head;
  }
  $('wb-back-live').addEventListener('click', live);
  Array.prototype.forEach.call(document.querySelectorAll('.wb-width'), function (b) {
    b.addEventListener('click', function () {
      $('wb-frame-wrap').setAttribute('data-width', b.getAttribute('data-width'));
      Array.prototype.forEach.call(document.querySelectorAll('.wb-width'), function (x) { x.setAttribute('aria-pressed', x === b ? 'true' : 'false'); });
    });
  });

  // ---- undo / redo ------------------------------------------------------------------------
  var CONFLICT = {
    UNDO_CONFLICT: 'Cannot undo: someone else changed this after you. Their later change is kept; edit it by hand if you need to.',
    NOTHING_TO_UNDO: 'Nothing of yours to ' + '%s' + '.',
    FORBIDDEN: 'This token is read-only: it cannot undo or redo.',
  };
  function undoRedo(mode) {
    if (deleted) return; // nothing to undo on a deleted draft
    if (!canWrite) { notice(CONFLICT.FORBIDDEN, 'bad'); return; }
    fetch(api + '/' + mode, { method: 'POST', headers: auth({ 'content-type': 'application/json' }), body: '{}' })
      .then(function (r) { return r.json().then(function (j) { return [r.ok, j]; }); })
      .then(function (p) {
        if (p[0]) { addFeed({ kind: 'turn', actor: 'you', title: mode + ' → v' + p[1].version }); notice((mode === 'undo' ? 'Undone' : 'Redone') + ' (v' + p[1].version + ').', 'ok'); return; }
        var err = p[1].error || p[1]; // the API answers { error: { code, message, path? } }
        var msg = CONFLICT[err.code] ? CONFLICT[err.code].replace('%s', mode) : (err.message || err.code);
        addFeed({ kind: 'refused', actor: 'you', title: mode + ' refused', lines: [{ path: err.path, text: msg }] });
        notice(msg, err.code === 'NOTHING_TO_UNDO' ? 'info' : 'bad');
      })
      .catch(function (e) { notice(mode + ' failed: ' + e.message, 'bad'); });
  }
  var noticeTimer = 0;
  /** Shows `text` for a few seconds, or until replaced when `stays` (a fault only an operator fixes). */
  function notice(text, kind, stays) {
    var n = $('wb-notice');
    n.textContent = text;
    n.className = 'wb-notice wb-notice-' + (kind || 'info');
    n.hidden = false;
    clearTimeout(noticeTimer);
    if (!stays) noticeTimer = setTimeout(function () { n.hidden = true; }, kind === 'bad' ? 8000 : 4000);
  }
  /** Hides the notice if it is of `kind` (a later edit supersedes a refusal). */
  function clearNotice(kind) {
    var n = $('wb-notice');
    if (!n.hidden && n.className.indexOf('wb-notice-' + kind) >= 0) { n.hidden = true; clearTimeout(noticeTimer); }
  }
  // Steps of mine seen on the stream: an undo right after a field edit waits for that edit's step.
  var me = '';
  var mine = 0;
  function undoAfterMine(mode, wait) {
    var seen = mine;
    var tries = 0;
    (function go() {
      if (!wait || mine > seen || tries++ >= 60) { undoRedo(mode); return; }
      setTimeout(go, 50);
    })();
  }
  $('wb-undo').addEventListener('click', function () { undoRedo('undo'); });
  $('wb-redo').addEventListener('click', function () { undoRedo('redo'); });
  document.addEventListener('keydown', function (e) {
    if (!(e.ctrlKey || e.metaKey) || e.key.toLowerCase() !== 'z') return;
    var t = e.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.isContentEditable)) return;
    e.preventDefault();
    undoRedo(e.shiftKey ? 'redo' : 'undo');
  });

  // ---- hooks for presence and ghosts (filled by the collaboration work) -------------------
  var hooks = {
    /** peers: [{ id, name, kind: 'human'|'agent', color? }] */
    setPresence: function (peers) {
      var box = $('weft-presence');
      box.textContent = '';
      (Array.isArray(peers) ? peers : []).slice(0, 8).forEach(function (p) {
        var a = el('span', 'wb-avatar wb-' + (p.kind === 'agent' ? 'agent' : 'human'), String(p.name || p.id || '?').slice(0, 2).toUpperCase());
        a.title = String(p.name || p.id || '');
        box.appendChild(a);
      });
    },
    /** ghost: { id, actor, sectionId?, componentId?, label? }; { id, done: true } removes it. */
    ghost: function (g) {
      if (!g || typeof g.id !== 'string') return;
      var box = $('weft-ghosts');
      var cur = box.querySelector('[data-ghost="' + CSS.escape(g.id) + '"]');
      if (g.done) { if (cur) cur.remove(); return; }
      if (!cur) { cur = el('div', 'wb-ghost'); cur.setAttribute('data-ghost', g.id); box.appendChild(cur); }
      cur.textContent = (g.actor || 'agent') + ' is writing ' + (g.label || g.componentId || g.sectionId || '…');
    },
    feed: addFeed,
    /** A short message above the preview (undo conflicts, refusals). */
    notice: notice,
    clearNotice: clearNotice,
    /** Undo/redo from inside a field; `afterMine`: wait for the step just sent to land first. */
    undo: undoAfterMine,
  };
  window.weftBuild = hooks;

  // ---- start ------------------------------------------------------------------------------
  /** A start waiting for the server to answer again (waitForServer). */
  var retryTimer = 0;
  function signOut(msg) {
    clearTimeout(retryTimer);
    sessionStorage.removeItem(KEY);
    token = '';
    window.weftReady = null;
    if (streamAbort) streamAbort.abort();
    $('wb-main').hidden = true;
    $('wb-login').hidden = false;
    $('wb-login-error').textContent = msg || '';
    $('wb-undo').disabled = true;
    $('wb-redo').disabled = true;
    status('signed out', '');
    document.dispatchEvent(new CustomEvent('weft:signed-out'));
  }
  $('wb-signout').addEventListener('click', function () { signOut(''); });
  $('wb-login').addEventListener('submit', function (e) {
    e.preventDefault();
    token = $('wb-token').value.trim();
    $('wb-token').value = '';
    clearTimeout(retryTimer);
    start();
  });

  function mintTicket() {
    return fetch('/preview/' + encodeURIComponent(draftId) + '/ticket', { method: 'POST', headers: auth() })
      .then(function (r) {
        if (r.ok) return r.json();
        return r.json().catch(function () { return null; }).then(function (j) {
          var said = j && j.error && j.error.message;
          var e = new Error(r.status === 404 ? 'No such draft, or this token cannot read it.' : said || 'HTTP ' + r.status);
          e.status = r.status;
          throw e;
        });
      }, function () {
        var e = new Error('The server cannot be reached.');
        e.status = 0;
        throw e;
      });
  }
  // The frame reads with a ticket that lasts 10 minutes: it gets a fresh one every 4 minutes, and
  // at once when it asks (its ticket was refused: expired, or a server restarted with another key).
  var ticketTimer = 0;
  var ticketAsked = 0;
  function sendTicket() {
    if (!token || deleted) return;
    ticketAsked = Date.now();
    mintTicket().then(function (t) {
      var w = $('wb-frame').contentWindow;
      if (w) w.postMessage({ type: 'weft:ticket', ticket: t.ticket }, location.origin);
    }).catch(function () { /* the next round or the frame's next ask tries again */ });
  }
  window.addEventListener('message', function (e) {
    if (e.origin !== location.origin || e.source !== $('wb-frame').contentWindow) return;
    // At most one ask every 2 s: a frame whose ticket the server keeps refusing does not loop.
    if (e.data && e.data.type === 'weft:ticket-needed' && Date.now() - ticketAsked > 2000) sendTicket();
  });

  function start() {
    mintTicket()
      .then(function (t) {
        sessionStorage.setItem(KEY, token);
        $('wb-login').hidden = true;
        $('wb-main').hidden = false;
        $('wb-frame').src = t.url;
        canWrite = t.write === true;
        me = (t.actor && t.actor.id) || '';
        $('wb-ro').hidden = canWrite;
        $('wb-undo').disabled = !canWrite;
        $('wb-redo').disabled = !canWrite;
        // The editor (editor.js, a module) joins the draft as a Yjs peer with this token.
        // Also left on window: the module may not have run yet (editor/ready.ts).
        window.weftReady = { token: token, write: canWrite, actor: t.actor || { id: 'you', kind: 'human' } };
        document.dispatchEvent(new CustomEvent('weft:ready', { detail: window.weftReady }));
        stream(0);
        loadVersions();
        clearInterval(ticketTimer);
        ticketTimer = setInterval(sendTicket, 4 * 60 * 1000);
      })
      .catch(function (e) {
        // The server is there but cannot answer now (its database restarting, a node going away)
        // or cannot be reached: the token is not at fault, so it is kept and the page tries again.
        if (e.status === 0 || e.status === 502 || e.status === 503 || e.status === 504) return waitForServer(e.message);
        signOut(e.message);
      });
  }
  function waitForServer(msg) {
    sessionStorage.setItem(KEY, token);
    $('wb-main').hidden = true;
    $('wb-login').hidden = false;
    $('wb-login-error').textContent = msg + ' Your token is kept; trying again every 3 s…';
    $('wb-undo').disabled = true;
    $('wb-redo').disabled = true;
    status('waiting for the server', 'wb-warn');
    clearTimeout(retryTimer);
    retryTimer = setTimeout(function () { if (token) start(); }, 3000);
  }
  if (token) start(); else signOut('');
})();

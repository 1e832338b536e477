// Weft drafts page (/build): the drafts this token can read, and a form that creates one and opens
// its Build view. No framework; the token is the Build view's (sessionStorage), sent in headers only.
(function () {
  'use strict';
  var api = (document.body.getAttribute('data-session-url') || '') + '/v1/drafts';
  var KEY = 'weft.token';
  var $ = function (id) { return document.getElementById(id); };
  var token = sessionStorage.getItem(KEY) || '';
  var auth = function (extra) { var h = { authorization: 'Bearer ' + token }; for (var k in extra || {}) h[k] = extra[k]; return h; };
  var errorOf = function (j, status) { return (j && j.error && j.error.message) || ('HTTP ' + status); };
  var open = function (id) { location.href = '/build/' + encodeURIComponent(id); };

  function signOut(msg) {
    sessionStorage.removeItem(KEY);
    token = '';
    $('wb-home').hidden = true;
    $('wb-signout').hidden = true;
    $('wb-login').hidden = false;
    $('wb-login-error').textContent = msg || '';
  }

  function list() {
    fetch(api, { headers: auth(), cache: 'no-store' })
      .then(function (r) { return r.json().then(function (j) { return [r, j]; }); })
      .then(function (rj) {
        var r = rj[0], j = rj[1];
        if (r.status === 401) return signOut('That token is not valid (revoked, expired or mistyped).');
        if (!r.ok) return signOut(errorOf(j, r.status));
        sessionStorage.setItem(KEY, token);
        $('wb-login').hidden = true;
        $('wb-home').hidden = false;
        $('wb-signout').hidden = false;
        var ul = $('wb-list');
        ul.textContent = '';
        (j.drafts || []).forEach(function (d) {
          var li = document.createElement('li');
          var a = document.createElement('a');
          a.href = '/build/' + encodeURIComponent(d.id);
          a.textContent = d.title || d.id;
          li.appendChild(a);
          var meta = document.createElement('span');
          meta.className = 'wb-muted';
          meta.textContent = ' ' + d.id + ' · v' + d.headVersion;
          li.appendChild(meta);
          ul.appendChild(li);
        });
        $('wb-none').hidden = (j.drafts || []).length > 0;
      })
      .catch(function (e) { signOut('The server did not answer (' + e.message + ').'); });
  }

  // An id from the title: lower case, dashes, starting with a letter (the API's rule).
  function idFrom(title) {
    var s = title.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 30);
    if (!/^[a-z]/.test(s)) s = 'draft' + (s ? '-' + s : '');
    return s + '-' + Math.random().toString(36).slice(2, 6);
  }

  $('wb-new').addEventListener('submit', function (e) {
    e.preventDefault();
    var title = $('wb-new-title').value.trim();
    var id = $('wb-new-id').value.trim() || idFrom(title);
    $('wb-new-error').textContent = '';
    fetch(api, { method: 'POST', headers: auth({ 'content-type': 'application/json' }), body: JSON.stringify({ id: id, title: title }) })
      .then(function (r) { return r.json().then(function (j) { return [r, j]; }); })
      .then(function (rj) { if (rj[0].ok) open(rj[1].id); else $('wb-new-error').textContent = errorOf(rj[1], rj[0].status); })
      .catch(function (e) { $('wb-new-error').textContent = 'The server did not answer (' + e.message + ').'; });
  });
  $('wb-login').addEventListener('submit', function (e) {
    e.preventDefault();
    token = $('wb-token').value.trim();
    $('wb-token').value = '';
    list();
  });
  $('wb-signout').addEventListener('click', function () { signOut(''); });
  if (token) list(); else signOut('');
})();

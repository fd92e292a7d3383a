/*
 * What the pages of gpuprof share (the report of `gpuprof html`,
 * report.js; the comparison of `gpuprof diff -f html`, diff.js), inlined
 * before each page's own script: errors shown in #errors (and
 * #report data-state="error") instead of a silently half-drawn page, and
 * elements made with text only, never markup.
 */
var gpPage = (function () {
  'use strict';

  function byId(id) { return document.getElementById(id); }

  function showError(msg) {
    var box = byId('errors');
    var p = document.createElement('p');
    p.textContent = msg;
    box.appendChild(p);
    box.setAttribute('data-errors', String(box.childNodes.length));
    byId('report').setAttribute('data-state', 'error');
  }

  window.addEventListener('error', function (ev) { showError('JavaScript error: ' + ev.message); });

  /* An element with text (never markup) and attributes. */
  function el(tag, text, attrs) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    return e;
  }

  /* s cut to at most n characters with an ellipsis, keeping its end when
     keepEnd (layer paths, file paths: their last parts tell them apart),
     else its start (kernel names); s itself when it fits. */
  function shorten(s, n, keepEnd) {
    s = String(s);
    if (s.length <= n) return s;
    return keepEnd ? '\u2026' + s.slice(s.length - n + 1) : s.slice(0, n - 1) + '\u2026';
  }

  /* A file path's last part, for a label (the path goes in a tooltip). */
  function baseName(path) {
    var parts = String(path).split('/').filter(function (p) { return p !== ''; });
    return parts.length ? parts[parts.length - 1] : String(path);
  }

  return { byId: byId, showError: showError, el: el, shorten: shorten, baseName: baseName };
})();

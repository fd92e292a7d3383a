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

  return { byId: byId, showError: showError, el: el };
})();

/*
 * gpuprof diff -f html: draws the comparison of two runs from the JSON in
 * #gp-data (share/html/diff.js, docs/diff.md).  Trace text only ever
 * reaches the page through textContent and Chart.js (which draws on a
 * canvas): never as markup.  After drawing, each chart or table's
 * container gets data-marks (points drawn, bars drawn, rows) and #report
 * data-state="done", or "error" with the errors in #errors.
 */
(function () {
  'use strict';

  var BASE = '#4e79a7', TEST = '#f28e2b';

  var byId = gpPage.byId, showError = gpPage.showError, el = gpPage.el, shorten = gpPage.shorten;
  var NAME_CHARS = 56;   /* longer names are cut, the whole name in the cell's tooltip */

  function fmtNs(ns) {
    if (ns === null || ns === undefined) return 'na';
    var a = Math.abs(ns);
    if (a >= 1e9) return (ns / 1e9).toFixed(3) + ' s';
    if (a >= 1e6) return (ns / 1e6).toFixed(3) + ' ms';
    if (a >= 1e3) return (ns / 1e3).toFixed(3) + ' us';
    return ns.toFixed(0) + ' ns';
  }

  function signed(ns) { return (ns < 0 ? '-' : '+') + fmtNs(Math.abs(ns)); }

  /* the relative change as the table says it: +12.3%, new, gone */
  function fmtRel(r) {
    if (r.status === 'new') return 'new';
    if (r.status === 'gone') return 'gone';
    if (r.rel === null) return 'na';
    return (r.rel >= 0 ? '+' : '') + (100 * r.rel).toFixed(1) + '%';
  }

  function fmtCi(r) {
    if (!r.ci) return '-';
    if (r.base > 0)
      return '[' + [r.ci[0], r.ci[1]].map(function (v) {
        return (v >= 0 ? '+' : '') + (100 * v / r.base).toFixed(1) + '%';
      }).join(', ') + ']';
    return '[' + signed(r.ci[0]) + ', ' + signed(r.ci[1]) + ']';
  }

  /* "a→b", or the one side there is (a group new or gone, a figure unknown in one run) */
  function pair(a, b) {
    var none = function (v) { return v === null || v === undefined || v === ''; };
    if (none(a) && none(b)) return '-';
    if (none(a) || none(b)) return String(none(a) ? b : a);
    return String(a) === String(b) ? String(a) : a + '\u2192' + b;
  }

  function setMarks(id, n) { byId(id).setAttribute('data-marks', String(n)); }

  function median(v) {
    var s = v.slice().sort(function (a, b) { return a - b; }), n = s.length;
    return n ? (s[(n - 1) >> 1] + s[n >> 1]) / 2 : 0;
  }

  /* The runs' setups, first: the facts that changed (marked), then the
     ones the same; a summary line naming what changed. */
  function setup(d) {
    var t = byId('setup-table'), hr = el('tr'), changed = [];
    ['', 'Base', 'Test'].forEach(function (h) { hr.appendChild(el('th', h)); });
    t.appendChild(hr);
    var rows = d.setup.filter(function (f) { return f.changed; }).concat(d.setup.filter(function (f) { return !f.changed; }));
    rows.forEach(function (f) {
      var tr = el('tr', null, f.changed ? { class: 'changed' } : {});
      tr.appendChild(el('td', f.name, f.changed ? { class: 'changed' } : {}));
      tr.appendChild(el('td', f.base || 'not stated'));
      tr.appendChild(el('td', f.changed ? f.test : f.test === f.base ? 'the same' : f.test || 'not stated'));
      t.appendChild(tr);
      if (f.changed) changed.push(f.name);
    });
    byId('setup-summary').textContent = changed.length
      ? 'The setup changed: ' + changed.join(', ') + '.  The times below compare two setups.'
      : 'Nothing the traces state about the setup changed.';
    if (changed.length) byId('setup-summary').className = 'verdict fail';
    setMarks('setup-table', changed.length);
  }

  function facts(d) {
    byId('title').textContent = d.base + ' \u2192 ' + d.test;
    var dl = byId('facts');
    [['Base', d.base], ['Test', d.test], ['Grouped by', d.by],
     ['Rank files', d.ranks[0] + ' \u2192 ' + d.ranks[1]],
     ['Iterations', d.iters[0] + ' \u2192 ' + d.iters[1]],
     ['Statistics', d.stats ? 'median per iteration, 95% interval on the difference'
       : 'none (fewer than 4 iterations a run, or --no-stats): totals against the threshold'],
     ['Threshold', (100 * d.threshold).toFixed(1) + '%'], ['Groups', d.groups]].forEach(function (f) {
      dl.appendChild(el('dt', f[0]));
      dl.appendChild(el('dd', f[1]));
    });
    var v = byId('verdict'), sig = d.rows.filter(function (r) {
      return r.kind === 'group' && (r.verdict === 'significant' || r.verdict === 'above threshold');
    }).length;
    var step = d.rows[0], text = 'Step time ' + fmtRel(step) + ' (' + step.verdict + ')';
    var trips = d.gates.filter(function (g) { return g.trips > 0; });
    if (d.gates.length) {
      text = (trips.length ? 'FAIL: ' + trips[0].first + (trips.length > 1 ? ' (and more)' : '')
        : 'PASS: ' + d.gates.length + ' limit' + (d.gates.length > 1 ? 's' : '') + ', none crossed') + '. ' + text;
      v.className = 'verdict ' + (trips.length ? 'fail' : 'pass');
    }
    var moved = d.setup.filter(function (f) { return f.changed; }).map(function (f) { return f.name; });
    v.textContent = text + '; ' + sig + ' of the groups shown changed beyond the threshold' +
      (moved.length ? ', with the setup changed (' + moved.join(', ') + ')' : '') + '.';
  }

  function steps(d) {
    var sets = [], colors = [BASE, TEST], names = ['base', 'test'], n = 0;
    d.steps.forEach(function (v, s) {
      sets.push({ label: names[s] + ' (' + v.length + ' iterations)', gpKind: 'run', showLine: false,
        data: v.map(function (ns, i) { return { x: i, y: ns / 1e6 }; }),
        backgroundColor: colors[s], borderColor: colors[s], pointRadius: 3 });
      if (v.length)
        sets.push({ label: names[s] + ' median', gpKind: 'median', showLine: true, pointRadius: 0,
          data: [{ x: 0, y: median(v) / 1e6 }, { x: v.length - 1, y: median(v) / 1e6 }],
          borderColor: colors[s], borderDash: [6, 4], borderWidth: 1 });
    });
    var canvas = byId('chart-steps').querySelector('canvas');
    var chart = new Chart(canvas.getContext('2d'), {
      type: 'scatter', data: { datasets: sets },
      options: { animation: false, responsive: true, maintainAspectRatio: false,
        scales: { x: { title: { display: true, text: 'iteration' } },
          y: { title: { display: true, text: 'step time (ms)' } } } }
    });
    chart.data.datasets.forEach(function (ds, i) {
      if (ds.gpKind === 'run') n += chart.getDatasetMeta(i).data.length;
    });
    setMarks('chart-steps', n);
  }

  /* A bar from the middle: the change against the largest shown, its
   * interval as a whisker; faded when within the noise. */
  function deltaBar(r, max) {
    var box = el('div', null, { class: 'delta' });
    box.appendChild(el('div', null, { class: 'axis' }));
    var w = max > 0 ? 50 * Math.min(1, Math.abs(r.change) / max) : 0;
    var cls = 'bar ' + (r.change >= 0 ? 'up' : 'down') + (r.verdict === 'within noise' ? ' noise' : '');
    var bar = el('div', null, { class: cls, title: signed(r.change) });
    bar.style.width = w + '%';
    bar.style.left = (r.change >= 0 ? 50 : 50 - w) + '%';
    box.appendChild(bar);
    if (r.ci && max > 0) {
      var lo = Math.max(-1, Math.min(1, r.ci[0] / max)), hi = Math.max(-1, Math.min(1, r.ci[1] / max));
      var ci = el('div', null, { class: 'ci' });
      ci.style.left = (50 + 50 * lo) + '%';
      ci.style.width = (50 * (hi - lo)) + '%';
      box.appendChild(ci);
    }
    return box;
  }

  function rowsTable(id, rows, withBars) {
    var box = byId(id), t = el('table', null, { class: 'data' }), head = el('tr'), body = el('tbody');
    var max = 0, bars = 0;
    rows.forEach(function (r) { if (r.kind === 'group') max = Math.max(max, Math.abs(r.change)); });
    /* what a reader looks for first on the left: the name, its status, the change and its verdict */
    ['Name', 'Status'].concat(withBars ? ['Change (bar)'] : [])
      .concat(['Change', 'Change%', '95% CI', 'Verdict', 'Base', 'Test', 'Calls', 'TC', 'Eff%'])
      .forEach(function (h) { head.appendChild(el('th', h)); });
    t.appendChild(el('thead')).appendChild(head);
    rows.forEach(function (r) {
      var tr = el('tr');
      var eff = function (e) { return e === null ? null : (100 * e).toFixed(0); };
      /* a kernel's short name (the full one in the tooltip), else the name cut to NAME_CHARS */
      var name = String(r.name), label = shorten(r.short || name, NAME_CHARS);
      tr.appendChild(el('td', label, label !== name ? { class: 'name', title: name } : { class: 'name' }));
      var cell = function (c) { tr.appendChild(el('td', c[0], c[1] ? { class: c[1] } : {})); };
      cell([r.kind === 'group' ? r.status : r.kind]);
      if (withBars) {
        var td = el('td');
        if (r.kind === 'group') { td.appendChild(deltaBar(r, max)); bars++; }
        tr.appendChild(td);
      }
      [[signed(r.change), 'num'], [fmtRel(r), 'num'], [fmtCi(r), 'num'],
       [r.verdict, r.verdict === 'significant' ? 'sig-significant' : r.verdict === 'within noise' ? 'sig-noise' : ''],
       [fmtNs(r.base), 'num'], [fmtNs(r.test), 'num'],
       [pair(r.calls[0], r.calls[1]), 'num'], [pair(r.tc[0], r.tc[1])], [pair(eff(r.eff[0]), eff(r.eff[1])), 'num']]
        .forEach(cell);
      body.appendChild(tr);
    });
    t.appendChild(body);
    box.appendChild(t);
    setMarks(id, withBars ? bars : rows.length);
  }

  function changes(d) {
    byId('changes-note').textContent = 'The step and total rows, then the ' + (d.rows.length - 2) + ' of ' +
      d.groups + ' groups with the largest changes' + (d.stats ? ' (per-iteration medians; the whisker is the 95% interval)'
      : ' (totals)') + '.  Faded bars are within the noise.';
    rowsTable('table-changes', d.rows, true);
  }

  function appeared(d) {
    rowsTable('table-appeared', d.appeared.concat(d.disappeared), false);
  }

  function gates(d) {
    var box = byId('table-gates'), t = el('table', null, { class: 'data' }), head = el('tr');
    ['Limit', 'Result', 'Rows crossing', 'First'].forEach(function (h) { head.appendChild(el('th', h)); });
    t.appendChild(el('thead')).appendChild(head);
    d.gates.forEach(function (g) {
      var tr = el('tr');
      [g.text, g.trips ? 'FAIL' : 'PASS', g.trips, g.first].forEach(function (c) { tr.appendChild(el('td', c)); });
      t.appendChild(tr);
    });
    if (!d.gates.length) box.appendChild(el('p', 'No --fail-if limits were given.', { class: 'note' }));
    else box.appendChild(t);
    setMarks('table-gates', d.gates.length);
  }

  function main() {
    if (typeof Chart !== 'function') throw new Error('the charting library (Chart.js) is missing from the page');
    var d = JSON.parse(byId('gp-data').textContent);
    Chart.defaults.font.size = 12;
    [setup, facts, steps, changes, appeared, gates].forEach(function (f) {
      try {
        f(d);
      } catch (e) {
        showError('drawing ' + f.name + ': ' + e.message);
      }
    });
    var r = byId('report');
    if (r.getAttribute('data-state') === 'loading') r.setAttribute('data-state', 'done');
  }

  try {
    main();
  } catch (e) {
    showError(e.message);
  }
})();

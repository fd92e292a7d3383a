/*
 * gpuprof html: draws the report from the JSON in #gp-data
 * (share/html/report.js, docs/html.md).  Trace text only ever reaches the
 * page through textContent, attributes set with setAttribute and Chart.js
 * (which draws text on a canvas): never as markup.  After drawing, each
 * chart's container gets data-marks (the bars, points or cells drawn,
 * counted from the chart's own elements) and #report data-state="done",
 * or "error" with the errors in #errors, and data-drawn-ms, for tests and
 * headless browsers.  A page over several ranks (data.job) draws the
 * job: a row and a step-time line per rank, the time split per rank, the
 * tables and roofline of the job's summed groups, and each rank's
 * timeline, memory, idle gaps and advice.
 */
(function () {
  'use strict';

  var COLORS = { compute: '#4e79a7', comm: '#f28e2b', memory: '#59a14f', overlap: '#b07aa1', idle: '#bab0ac' };
  var PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f'];

  var byId = gpPage.byId, showError = gpPage.showError, el = gpPage.el, shorten = gpPage.shorten;
  var NAME_CHARS = 110;   /* a table's names longer than this are cut (the full name in its tooltip) */

  /* What an input's time points are counted from: its trace's start (the
     first event of any kind), as every command counts them. */
  function origin(inp) { return inp.origin !== undefined ? inp.origin : inp.start; }
  function fmtNs(ns) {
    if (ns === null || ns === undefined) return 'na';
    var a = Math.abs(ns);
    if (a >= 1e9) return (ns / 1e9).toFixed(3) + ' s';
    if (a >= 1e6) return (ns / 1e6).toFixed(3) + ' ms';
    if (a >= 1e3) return (ns / 1e3).toFixed(2) + ' us';
    return ns + ' ns';
  }

  function fmtBytes(b) {
    if (b === null || b === undefined || b < 0) return 'na';
    var u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'], i = 0;
    while (b >= 1024 && i < u.length - 1) { b /= 1024; i++; }
    return (i ? b.toFixed(2) : String(b)) + ' ' + u[i];
  }

  function fmtRate(v, unit) {
    if (!(v > 0)) return 'na';
    var p = ['', 'K', 'M', 'G', 'T', 'P'], i = 0;
    while (v >= 1000 && i < p.length - 1) { v /= 1000; i++; }
    return v.toFixed(v >= 100 ? 0 : v >= 10 ? 1 : 2) + ' ' + p[i] + unit;
  }

  function pct(part, whole) { return whole > 0 ? (100 * part / whole).toFixed(1) + '%' : 'na'; }

  /* A layer path's components: split at each '/', empty ones skipped
     (analysis/layers.h, as the folded export does). */
  function layerFrames(path) {
    var out = path.split('/').filter(function (c) { return c !== ''; });
    return out.length ? out : [path];
  }
  function layerLabel(name) { return name === '(none)' ? 'no layer' : name; }   /* kernels outside any layer */

  function setMarks(id, n) { byId(id).setAttribute('data-marks', String(n)); }

  /* A chart the trace has no data for: its caption and canvas hidden, the
     sentence why in its place (#NAME-absent), no marks. */
  function absent(name, chartId, why) {
    var p = byId(name + '-absent');
    p.textContent = why;
    p.hidden = false;
    var cap = byId(name + '-caption');
    if (cap) cap.hidden = true;
    byId(chartId).style.display = 'none';
    setMarks(chartId, 0);
  }

  /* Log-axis tick labels at powers of ten only (the others crowd). */
  function decadeTicks(fmt) {
    return function (v) {
      var e = Math.log10(v);
      return Math.abs(e - Math.round(e)) < 1e-6 ? fmt(v) : '';
    };
  }

  /* Elements Chart.js drew for the datasets named in which (all when absent). */
  function chartMarks(chart, which) {
    var n = 0;
    chart.data.datasets.forEach(function (ds, i) {
      if (!which || which.indexOf(ds.gpKind) >= 0) n += chart.getDatasetMeta(i).data.length;
    });
    return n;
  }

  function newChart(id, config) {
    var canvas = byId(id).querySelector('canvas');
    config.options = config.options || {};
    config.options.animation = false;
    config.options.responsive = true;
    config.options.maintainAspectRatio = false;
    return new Chart(canvas.getContext('2d'), config);
  }

  /*
   * A sortable, filterable table: cols = [{key, title, num, fmt, bar}];
   * rows are objects; a "bar" column draws the value against the largest;
   * a row with other: true (the sum of the rows not shown) stays last;
   * a text column's long values are cut (to chars, else NAME_CHARS;
   * keepEnd: their end kept) with the
   * full value in the cell's tooltip; label(value, row): the text shown
   * instead (a file's base name), the value then in the tooltip;
   * opts: sortKey (the first order, longest first unless ascending),
   * a tag column (short words: a cause, a step) never wraps;
   * noFilter: no filter box (a small table), onRow(row, tr): called when a row is clicked (rows then show a pointer;
   * "other" rows are not clickable).
   */
  function table(containerId, cols, rows, opts) {
    var box = byId(containerId);
    var filter = el('input', null, { type: 'search', placeholder: 'filter by name', class: 'filter' });
    var t = el('table', null, { class: 'data' });
    var head = el('tr'), body = el('tbody');
    var sortKey = opts && opts.sortKey, sortDesc = !(opts && opts.ascending);
    var max = {};
    cols.forEach(function (c) {
      if (!c.bar) return;
      max[c.key] = 0;
      rows.forEach(function (r) { if (r[c.key] > max[c.key]) max[c.key] = r[c.key]; });
    });
    cols.forEach(function (c) {
      var th = el('th', c.title);
      th.addEventListener('click', function () {
        sortDesc = sortKey === c.key ? !sortDesc : true;
        sortKey = c.key;
        draw();
      });
      head.appendChild(th);
    });
    var thead = el('thead');
    thead.appendChild(head);
    t.appendChild(thead);
    t.appendChild(body);
    function draw() {
      var q = filter.value.toLowerCase();
      var shown = rows.filter(function (r) { return !q || String(r.name).toLowerCase().indexOf(q) >= 0; });
      if (sortKey) {
        shown.sort(function (a, b) {
          if (a.other !== b.other) return a.other ? 1 : -1;   /* "other" stays last */
          var x = a[sortKey], y = b[sortKey];
          var c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
          return sortDesc ? -c : c;
        });
      }
      body.textContent = '';
      shown.forEach(function (r) {
        var click = opts && opts.onRow && !r.other;
        var tr = el('tr', null, click ? { class: 'click' } : {});
        if (click) tr.addEventListener('click', function () {
          Array.prototype.forEach.call(body.querySelectorAll('tr.selected'), function (x) { x.classList.remove('selected'); });
          tr.classList.add('selected');
          opts.onRow(r, tr);
        });
        cols.forEach(function (c) {
          var v = r[c.key];
          if (c.bar) {
            var td = el('td', null, { class: 'bar' });
            var span = el('span', null, { title: c.fmt ? c.fmt(v, r) : String(v) });
            span.style.width = (max[c.key] > 0 ? 100 * v / max[c.key] : 0) + '%';
            td.appendChild(span);
            tr.appendChild(td);
          } else {
            var text = c.fmt ? c.fmt(v, r) : v;
            var attrs = { class: c.num ? 'num' : c.tag ? 'tag' : 'name' };
            if (c.label) {
              var full = String(text);
              text = c.label(v, r);
              if (text !== full) attrs.title = full;
            }
            if (!c.num && String(text).length > (c.chars || NAME_CHARS)) {
              if (!attrs.title) attrs.title = String(text);
              text = shorten(text, c.chars || NAME_CHARS, c.keepEnd);
            }
            tr.appendChild(el('td', text, attrs));
          }
        });
        body.appendChild(tr);
      });
      box.setAttribute('data-rows', String(shown.length));
    }
    filter.addEventListener('input', draw);
    if (!(opts && opts.noFilter)) box.appendChild(filter);
    box.appendChild(t);
    draw();
  }

  /* Identical GPUs (same name, peak table entry, SMs and peaks) once:
     [{d: the first, ids: their ids, count}], in the order they first come. */
  function gpuGroups(devices) {
    var out = [], at = {};
    devices.forEach(function (d) {
      var k = JSON.stringify([d.name, d.gpu, d.sm, d.fp32, d.fp16, d.bw]);
      if (!(k in at)) { at[k] = out.length; out.push({ d: d, ids: [], count: 0 }); }
      out[at[k]].ids.push(d.id);
      out[at[k]].count++;
    });
    return out;
  }

  /* "8 × NVIDIA H100 80GB HBM3, 1 × ..." for a list of devices. */
  function gpuSummary(devices) {
    return gpuGroups(devices).map(function (g) {
      return g.count + ' \u00d7 ' + (g.d.name || g.d.gpu || 'unknown GPU');
    }).join(', ') || 'none recorded';
  }

  /* GPU ids as a short list: "0-7", "0, 2, 5". */
  function idList(ids) {
    var sorted = ids.slice().sort(function (a, b) { return a - b; });
    var run = sorted.every(function (v, i) { return i === 0 || v === sorted[i - 1] + 1; });
    return run && sorted.length > 2 ? sorted[0] + '-' + sorted[sorted.length - 1] : sorted.join(', ');
  }

  function facts(inp) {
    var dl = byId('facts');
    function fact(k, v) { dl.appendChild(el('dt', k)); dl.appendChild(el('dd', v)); }
    var span = inp.end - inp.start;
    fact('File', inp.path);
    fact('Format', inp.format);
    fact('Kernels', inp.kernels + ' (' + fmtNs(inp.gpu_ns) + ' of GPU time)');
    fact('Copies, memsets', inp.copies + ', ' + inp.memsets);
    fact('API calls', inp.apis);
    fact('Time span', fmtNs(span) + ' (first to last event)');
    fact('GPUs', gpuSummary(inp.devices));
    var dev = byId('devices');
    var hr = el('tr');
    ['GPUs', 'Count', 'Device name', 'Peaks from', 'SMs', 'FP32', 'FP16 (tensor cores)', 'Memory bandwidth'].forEach(function (h) { hr.appendChild(el('th', h)); });
    dev.appendChild(hr);
    var groups = gpuGroups(inp.devices);
    groups.forEach(function (g) {
      var tr = el('tr'), d = g.d;
      [idList(g.ids), g.count, d.name, d.gpu || 'unknown GPU', d.sm || 'na', fmtRate(d.fp32, 'FLOP/s'), fmtRate(d.fp16, 'FLOP/s'),
       fmtRate(d.bw, 'B/s')].forEach(function (v) { tr.appendChild(el('td', v)); });
      dev.appendChild(tr);
    });
    dev.setAttribute('data-rows', String(groups.length));
    document.title = 'gpuprof report: ' + gpPage.baseName(inp.path);
    byId('title').textContent = shorten(gpPage.baseName(inp.path), 80);
    byId('title').setAttribute('title', inp.path);
  }

  /* One stacked bar per (device, iteration); the whole trace per device when there are no iterations. */
  function breakdown(inp) {
    var wins = inp.breakdown.filter(function (w) { return w.iter >= 0; });
    if (!wins.length) {
      wins = inp.breakdown.filter(function (w) { return w.iter < 0; });
      byId('breakdown-title').textContent = 'Where the time goes, per GPU';
      byId('breakdown-note').textContent = 'The trace marks no steps: each bar is one GPU\'s whole trace, split into time ' +
        'with only compute, only communication or only memory work, time with several at once (overlap), and idle time.';
    }
    var devs = {};
    inp.breakdown.forEach(function (w) { devs[w.device] = true; });
    var many = Object.keys(devs).length > 1;
    var grouped = wins.some(function (w) { return w.iters > 1; });
    var labels = wins.map(function (w) {
      var it = w.iter < 0 ? 'whole trace' : w.iters > 1 ? 'iters ' + w.iter + '-' + w.iter_last : 'iter ' + w.iter;
      return many || w.iter < 0 ? 'GPU ' + w.device + ' ' + it : it;
    });
    if (grouped)
      byId('chart-breakdown').parentNode.insertBefore(el('p', 'More than 200 iterations per GPU: each bar is a group of ' +
        'consecutive iterations, its mean per iteration.', { class: 'note' }), byId('chart-breakdown'));
    var kinds = ['compute', 'comm', 'memory', 'overlap', 'idle'];
    var names = { compute: 'compute', comm: 'communication', memory: 'memory', overlap: 'overlap', idle: 'idle' };
    var chart = newChart('chart-breakdown', {
      type: 'bar',
      data: {
        labels: labels,
        datasets: kinds.map(function (k) {
          return { label: names[k], gpKind: 'bar', backgroundColor: COLORS[k],
                   data: wins.map(function (w) { return w[k] / w.iters / 1e6; }) };
        })
      },
      options: {
        scales: { x: { stacked: true }, y: { stacked: true, title: { display: true, text: 'ms' } } },
        plugins: { tooltip: { callbacks: { label: function (c) { return c.dataset.label + ': ' + fmtNs(Math.round(c.raw * 1e6)); } } } }
      }
    });
    byId('chart-breakdown').setAttribute('data-bars', String(chart.getDatasetMeta(0).data.length));
    setMarks('chart-breakdown', chartMarks(chart));
    idleTable(inp.idle_causes, [], inp.breakdown.filter(function (w) { return w.iter < 0; }).map(function (w) {
      return { lead: [], w: w, co: commOf(inp, w.device) };
    }));
  }

  /* The communication overlap of an input's device (its comm_overlap row), or null. */
  function commOf(inp, dev) {
    return (inp.comm_overlap || []).filter(function (c) { return c.device === dev; })[0] || null;
  }

  /*
   * The table under the breakdown: per GPU (rows: {lead: leading cells,
   * w: its whole-trace window, co: its comm_overlap row or null}) its GPU
   * span, the busy time with its share of the GPU span (advise's
   * denominator), the idle time, the communication hidden under compute
   * and exposed with the SMs it holds meanwhile (when some row has
   * communication), and the idle time of each cause some row has.
   */
  function idleTable(causes, leadTitles, rows) {
    var t = byId('idle-causes'), hr = el('tr');
    var shown = causes.map(function (c, i) { return i; }).filter(function (i) {
      return rows.some(function (r) { return r.w.causes[i] > 0; });
    });
    var comm = rows.some(function (r) { return r.w.comm_hidden + r.w.comm_exposed > 0; });
    var commTitles = comm ? ['Communication hidden under compute', 'Communication exposed',
                             'SMs communication holds under compute'] : [];
    leadTitles.concat(['GPU', 'GPU span', 'Busy (share of the GPU span)', 'Idle'], commTitles,
                      shown.map(function (i) { return 'idle: ' + causes[i]; })).forEach(function (h) {
      hr.appendChild(el('th', h));
    });
    t.appendChild(hr);
    rows.forEach(function (r) {
      var w = r.w, span = w.end - w.start, tr = el('tr'), co = r.co;
      var held = co && co.sms_held !== null ? co.sms_held.toFixed(1) + (co.sm_count > 0 ? ' of ' + co.sm_count : '') : '-';
      var commCells = comm ? [fmtNs(w.comm_hidden), fmtNs(w.comm_exposed), held] : [];
      r.lead.concat([w.device, fmtNs(span), fmtNs(span - w.idle) + ' (' + pct(span - w.idle, span) + ')', fmtNs(w.idle)],
                    commCells, shown.map(function (i) { return fmtNs(w.causes[i]); })).forEach(function (v) {
        tr.appendChild(el('td', v));
      });
      t.appendChild(tr);
    });
  }

  /* The layer tree of the shown layers as an icicle: a row per depth, widths by GPU time;
     onCell(path) when a cell is clicked (path: its frames). */
  function icicle(inp, onCell) {
    var root = { name: 'all', ns: 0, kids: {}, order: [] };
    inp.layers.forEach(function (l) {
      var path = l.name === '(none)' || l.name === 'other' ? [l.name] : layerFrames(l.name);
      var node = root;
      root.ns += l.ns;
      path.forEach(function (f) {
        if (!node.kids[f]) { node.kids[f] = { name: f, ns: 0, kids: {}, order: [] }; node.order.push(f); }
        node = node.kids[f];
        node.ns += l.ns;
      });
    });
    var box = byId('icicle'), cells = 0, depth = 0, px = box.clientWidth || 1200;
    function draw(node, x, level, color, path) {
      var total = root.ns || 1;
      node.order.forEach(function (f, i) {
        var kid = node.kids[f];
        var w = kid.ns / total;
        var c = level === 0 ? PALETTE[i % PALETTE.length] : color;
        var here = path.concat([f]);
        /* a label only where it fits (about 7 px a character); the tooltip has it all */
        var room = Math.floor(w * px / 7);
        var d = el('div', room >= 4 ? shorten(layerLabel(kid.name), room) : '', { title: layerLabel(here.join('/')) + ': ' + fmtNs(kid.ns) + ' (' + pct(kid.ns, total) + ')',
                                                                  class: 'clickable' });
        d.addEventListener('click', function () { onCell(here); });
        d.style.left = (100 * x) + '%';
        d.style.width = 'max(1px, ' + (100 * w) + '%)';
        d.style.top = (22 * level) + 'px';
        d.style.background = c;
        d.style.opacity = String(Math.max(0.45, 1 - 0.12 * level));
        box.appendChild(d);
        cells++;
        if (level + 1 > depth) depth = level + 1;
        draw(kid, x, level + 1, c, here);
        x += w;
      });
    }
    draw(root, 0, 0, PALETTE[0], []);
    box.style.height = (22 * depth + 4) + 'px';
    setMarks('icicle', cells);
  }

  /*
   * The drill-down of the layers whose path starts with the frames prefix
   * (exact: the layer of that path alone) in #layer-detail: their ops and
   * kernels (the page's data: each layer's "drill", whose rows add up to
   * the layer's time), summed by name over those layers.
   */
  function layerDetail(inp, prefix, exact) {
    var box = byId('layer-detail');
    var under = inp.layers.filter(function (l) {
      if (!l.drill) return false;
      var f = l.name === '(none)' ? [l.name] : layerFrames(l.name);
      return (!exact || f.length === prefix.length) && prefix.every(function (p, i) { return f[i] === p; });
    });
    var ns = under.reduce(function (a, l) { return a + l.ns; }, 0);
    box.textContent = '';
    var name = prefix.join('/');
    box.appendChild(el('h3', (name === '(none)' ? 'No layer' : 'Layer ' + shorten(name, NAME_CHARS, true)) + ': ' + fmtNs(ns) + ' of GPU time' +
                       (under.length > 1 ? ' in ' + under.length + ' layers' : ''), { title: name }));
    var cols = el('div', null, { class: 'cols' });
    box.appendChild(cols);
    [['ops', 'Op'], ['kernels', 'Kernel']].forEach(function (part) {
      var sum = {}, order = [];
      under.forEach(function (l) {
        l.drill[part[0]].forEach(function (r) {
          if (!(r.name in sum)) { sum[r.name] = { name: r.name, label: r.label, ns: 0, count: 0, other: 'groups' in r }; order.push(r.name); }
          sum[r.name].ns += r.ns;
          sum[r.name].count += r.count;
        });
      });
      var div = el('div', null, { class: 'table', id: 'layer-detail-' + part[0] });
      cols.appendChild(div);
      table(div.id, [
        { key: 'name', title: part[1], chars: 56, label: function (v, r) { return r.label || v; } },
        { key: 'ns', title: 'GPU time', num: true, fmt: fmtNs },
        { key: 'share', title: 'Share of the layer', num: true, fmt: function (v) { return (100 * v).toFixed(1) + '%'; } },
        { key: 'count', title: 'Kernels', num: true }
      ], order.map(function (k) {
        var r = sum[k];
        r.share = ns ? r.ns / ns : 0;
        return r;
      }), { sortKey: 'ns', noFilter: true });
      div.setAttribute('data-ns', String(order.reduce(function (a, k) { return a + sum[k].ns; }, 0)));
    });
    box.setAttribute('data-layer', name);
    box.setAttribute('data-ns', String(ns));
  }

  function layers(inp) {
    var named = inp.layers.filter(function (l) { return l.name !== '(none)' && l.name !== 'other'; });
    function pick(prefix, exact) { layerDetail(inp, prefix, exact); byId('layer-detail').scrollIntoView({ block: 'nearest' }); }
    /* the views by module type and path (layers.js), with the coverage sentence */
    var views = gpLayers.draw(inp, { table: table, fmtNs: fmtNs, pick: pick, frames: layerFrames });
    if (!named.length && !views) {
      byId('layers-absent').hidden = false;
      byId('layers-absent').textContent = 'No layers: no kernel of this trace ran inside a module or NVTX range ' +
        'that names a layer, so every kernel is under "(none)" (record with with_modules=True or torch.profiler ' +
        'record_function ranges, or NVTX ranges).';
    }
    icicle(inp, pick);
    byId('chart-layers').style.height = (80 + 22 * inp.layers.length) + 'px';
    var chart = newChart('chart-layers', {
      type: 'bar',
      data: {
        labels: inp.layers.map(function (l) { return shorten(layerLabel(l.name), 48, true); }),
        datasets: [{ label: 'GPU time (ms)', gpKind: 'bar', backgroundColor: COLORS.compute,
                     data: inp.layers.map(function (l) { return l.ns / 1e6; }) }]
      },
      options: { indexAxis: 'y', plugins: { legend: { display: false },
        tooltip: { callbacks: { title: function (c) { return layerLabel(inp.layers[c[0].dataIndex].name); },
                                label: function (c) { return fmtNs(inp.layers[c.dataIndex].ns); } } } },
        onClick: function (e, items) {
          var l = items.length ? inp.layers[items[0].index] : null;
          if (l && l.drill) pick(l.name === '(none)' ? [l.name] : layerFrames(l.name), true);
        } }
    });
    setMarks('chart-layers', chartMarks(chart));
    table('table-layers', [
      { key: 'name', title: 'Layer', keepEnd: true, label: layerLabel },
      { key: 'ns', title: 'GPU time', num: true, fmt: fmtNs },
      { key: 'share', title: 'Share of GPU time', num: true, fmt: function (v) { return (100 * v).toFixed(1) + '%'; } },
      { key: 'ns', title: '', bar: true, fmt: fmtNs },
      { key: 'count', title: 'Kernels', num: true }
    ], inp.layers.map(function (l) {
      return { name: l.name, ns: l.ns, count: l.count, share: inp.gpu_ns ? l.ns / inp.gpu_ns : 0, other: 'groups' in l };
    }), { sortKey: 'ns', onRow: function (r) { pick(r.name === '(none)' ? [r.name] : layerFrames(r.name), true); } });
    /* the largest layer's ops and kernels open from the start */
    var first = inp.layers.filter(function (l) { return l.drill; })[0];
    if (first) layerDetail(inp, first.name === '(none)' ? [first.name] : layerFrames(first.name), true);
  }

  /* Communication per layer and pass (the input's comm_layers, commover.h):
     hidden under compute, exposed, SMs held; nothing without communication. */
  function commLayers(inp) {
    var rows = inp.comm_layers || [];
    if (!rows.length) return;
    byId('comm-layers-caption').hidden = false;
    byId('table-comm-layers').hidden = false;
    table('table-comm-layers', [
      { key: 'layer', title: 'Layer', keepEnd: true },
      { key: 'pass', title: 'Pass' },
      { key: 'kernels', title: 'Comm kernels', num: true },
      { key: 'hidden', title: 'Hidden under compute', num: true, fmt: fmtNs },
      { key: 'exposed', title: 'Exposed', num: true, fmt: fmtNs },
      { key: 'sms', title: 'SMs held', num: true, fmt: function (v) { return v === null ? '-' : v.toFixed(1); } }
    ], rows.map(function (r) {
      return { layer: r.layer, pass: r.pass, kernels: r.kernels, hidden: r.hidden, exposed: r.exposed,
               sms: r.sms_held, other: false };
    }), { sortKey: 'exposed' });
  }

  function ops(inp) {
    table('table-ops', [
      { key: 'name', title: 'Op' },
      { key: 'ns', title: 'GPU time', num: true, fmt: fmtNs },
      { key: 'share', title: 'Share of GPU time', num: true, fmt: function (v) { return (100 * v).toFixed(1) + '%'; } },
      { key: 'ns', title: '', bar: true, fmt: fmtNs },
      { key: 'count', title: 'Kernels', num: true },
      { key: 'rate', title: 'Achieved FLOP/s', num: true, fmt: function (v) { return fmtRate(v, 'FLOP/s'); } },
      { key: 'ai', title: 'FLOP/byte', num: true, fmt: function (v) { return v > 0 ? v.toFixed(2) : 'na'; } }
    ], inp.ops.map(function (o) {
      return { name: o.name, ns: o.ns, count: o.count, share: inp.gpu_ns ? o.ns / inp.gpu_ns : 0,
               rate: o.known_ns > 0 ? o.flops / (o.known_ns * 1e-9) : 0, ai: o.bytes > 0 ? o.flops / o.bytes : 0,
               other: 'groups' in o };
    }), { sortKey: 'ns' });
  }

  /* Points at (FLOP/byte, FLOP/s) sized by time; one roof per distinct pair of peaks. */
  function roofline(inp) {
    var pts = inp.roofline;
    if (!pts.length) {
      absent('roofline', 'chart-roofline', 'No roofline: no kernel of this trace has a FLOP model (the op model knows ' +
             'the FLOPs and bytes of none of its ops with their shapes; record shapes with record_shapes=True, ' +
             'or name the ops in an ops file: docs/op-model.md).');
      byId('chart-roofline').setAttribute('data-roofs', '0');
      return;
    }
    var maxNs = 1, xmin = Infinity, xmax = 0, roofs = {};
    pts.forEach(function (p) {
      var ai = p.flops / p.bytes;
      if (p.ns > maxNs) maxNs = p.ns;
      if (ai < xmin) xmin = ai;
      if (ai > xmax) xmax = ai;
      if (p.peak_flops > 0 && p.peak_bw > 0) roofs[p.peak_flops + '/' + p.peak_bw] = [p.peak_flops, p.peak_bw];
    });
    var keys = Object.keys(roofs);
    keys.forEach(function (k) { var r = roofs[k][0] / roofs[k][1]; if (r < xmin) xmin = r; if (r > xmax) xmax = r; });
    if (!isFinite(xmin)) { xmin = 0.1; xmax = 1000; }
    xmin /= 4; xmax *= 4;
    var datasets = [{
      label: 'ops (op + shapes)', gpKind: 'point', type: 'bubble', backgroundColor: 'rgba(78,121,167,0.55)',
      borderColor: '#2b4f75',
      data: pts.map(function (p) {
        return { x: p.flops / p.bytes, y: p.flops / (p.ns * 1e-9), r: 3 + 17 * Math.sqrt(p.ns / maxNs), p: p };
      })
    }];
    keys.forEach(function (k, i) {
      var pf = roofs[k][0], bw = roofs[k][1], ridge = pf / bw;
      datasets.push({
        label: 'ceiling ' + fmtRate(pf, 'FLOP/s') + ', ' + fmtRate(bw, 'B/s'), gpKind: 'roof', type: 'line',
        borderColor: PALETTE[(i + 2) % PALETTE.length], borderWidth: 2, pointRadius: 0, fill: false,
        data: [{ x: xmin, y: xmin * bw }, { x: ridge, y: pf }, { x: xmax, y: pf }]
      });
    });
    var chart = newChart('chart-roofline', {
      type: 'bubble',
      data: { datasets: datasets },
      options: {
        scales: {
          x: { type: 'logarithmic', min: xmin, max: xmax, title: { display: true, text: 'arithmetic intensity (FLOP/byte)' },
               ticks: { autoSkip: true, maxRotation: 0, callback: decadeTicks(function (v) { return String(+v.toPrecision(3)); }) } },
          y: { type: 'logarithmic', title: { display: true, text: 'achieved FLOP/s' },
               ticks: { autoSkip: true, callback: decadeTicks(function (v) { return fmtRate(v, 'FLOP/s'); }) } }
        },
        plugins: { tooltip: { callbacks: { label: function (c) {
          var p = c.raw.p;
          if (!p) return c.dataset.label;
          return [p.op + (p.params ? ' ' + p.params : ''), 'GPU time ' + fmtNs(p.ns) + ' in ' + p.count + ' kernels',
                  fmtRate(p.flops / (p.ns * 1e-9), 'FLOP/s') + ', ' + fmtRate(p.bytes / (p.ns * 1e-9), 'B/s'),
                  (p.flops / p.bytes).toFixed(2) + ' FLOP/byte',
                  p.peak_flops > 0 ? (100 * Math.max(p.flops / p.peak_flops, p.bytes / p.peak_bw) / (p.ns * 1e-9)).toFixed(1) + '% of the roofline' : 'peaks unknown'];
        } } } }
      }
    });
    setMarks('chart-roofline', chartMarks(chart, ['point']));
    byId('chart-roofline').setAttribute('data-roofs', String(keys.length));
  }

  /* The run's steps (the one definition every command prints: from a step's start to the next one's,
     host waits included) and each one's GPU span (its kernels' first start to last end). */
  function steps(inp) {
    var st = inp.run_steps || { median: 0, v: [] };
    if (st.v.length < 2) {
      absent('steps', 'chart-steps', st.v.length ? 'Step time: the trace records one step (iteration ' + st.v[0][0] +
             ', ' + fmtNs(st.v[0][1]) + (st.v[0][2] > 0 ? ', GPU span ' + fmtNs(st.v[0][2]) : '') +
             '): nothing to compare it with.'
             : 'Step time: the trace marks no steps (no ProfilerStep#N or "iteration N" ranges), so its time cannot be cut into steps.');
      return;
    }
    var chart = newChart('chart-steps', {
      type: 'bar',
      data: {
        labels: st.v.map(function (s) { return 'iter ' + s[0]; }),
        datasets: [
          { label: 'step (median ' + fmtNs(st.median) + ')', gpKind: 'bar', backgroundColor: PALETTE[0],
            data: st.v.map(function (s) { return s[1] / 1e6; }) },
          { label: 'its GPU span', gpKind: 'bar', backgroundColor: PALETTE[1],
            data: st.v.map(function (s) { return s[2] > 0 ? s[2] / 1e6 : null; }) }
        ]
      },
      options: { scales: { y: { title: { display: true, text: 'ms per step' } } } }
    });
    setMarks('chart-steps', chartMarks(chart));
  }

  /* The busy share from 0 (light) to 1 (dark blue), one hue. */
  function busyColor(b) {
    var t = Math.max(0, Math.min(1, b));
    var c0 = [240, 242, 245], c1 = [31, 78, 137];
    return 'rgb(' + c0.map(function (v, i) { return Math.round(v + (c1[i] - v) * t); }).join(',') + ')';
  }

  /*
   * A heat map of GPU busy in #heatmap: a row per series ({label, title,
   * busy: fractions per bucket, width: ns per bucket}), a column per
   * bucket, x in ms from each row's own first event (ranks' clocks
   * differ), the longest row across; hover for a cell's figures.
   * data-rows: the rows drawn; data-marks: the cells.
   */
  /* A heat map of rows (label, title, busy: values 0..1 per bucket of
     width ns) into the box o.box (default: the busy timeline's), the
     legend from o.low to o.high, hover text from o.tip(row, bucket). */
  function heatmap(rows, xtitle, o) {
    o = o || {};
    var box = byId(o.box || 'heatmap');
    box.hidden = false;
    var canvas = box.querySelector('canvas'), dpr = window.devicePixelRatio || 1;
    var labelW = 120, rowH = rows.length > 40 ? 6 : rows.length > 16 ? 10 : 18, top = 4, axisH = 40;
    var W = box.clientWidth || 1200, H = top + rowH * rows.length + axisH, plotW = W - labelW - 12;
    canvas.width = Math.round(W * dpr);
    canvas.height = Math.round(H * dpr);
    canvas.style.height = H + 'px';
    var ctx = canvas.getContext('2d');
    ctx.scale(dpr, dpr);
    var span = 0, cells = 0;
    rows.forEach(function (r) { span = Math.max(span, r.busy.length * r.width); });
    span = span || 1;
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    var every = Math.ceil(13 / rowH);
    rows.forEach(function (r, i) {
      var y = top + i * rowH;
      if (i % every === 0) {
        ctx.fillStyle = '#1d2330';
        ctx.textAlign = 'right';
        ctx.fillText(shorten(r.label, 18), labelW - 6, y + rowH / 2);
      }
      r.busy.forEach(function (b, j) {
        var x0 = labelW + plotW * j * r.width / span, x1 = labelW + plotW * (j + 1) * r.width / span;
        ctx.fillStyle = busyColor(b);
        ctx.fillRect(x0, y, Math.max(1, x1 - x0 + 0.5), rowH - (rowH > 8 ? 1 : 0));
        cells++;
      });
    });
    /* the axis: five ticks in ms */
    var ay = top + rowH * rows.length + 4;
    ctx.fillStyle = '#5b6475';
    ctx.textAlign = 'center';
    for (var k = 0; k <= 4; k++) {
      var x = labelW + plotW * k / 4;
      ctx.fillRect(x, ay - 3, 1, 4);
      ctx.fillText((span * k / 4 / 1e6).toFixed(span >= 1e8 ? 0 : 2), x, ay + 7);
    }
    ctx.fillText(xtitle, labelW + plotW / 2, ay + 22);
    /* the legend: 0% to 100% busy */
    ctx.textAlign = 'left';
    for (var q = 0; q < 50; q++) { ctx.fillStyle = busyColor(q / 49); ctx.fillRect(4 + q * 1.6, ay + 16, 2, 10); }
    ctx.fillStyle = '#5b6475';
    ctx.fillText(o.low || 'idle', 4, ay + 6);
    ctx.fillText(o.high || 'busy', 70, ay + 6);
    canvas.addEventListener('mousemove', function (ev) {
      var rect = canvas.getBoundingClientRect(), i = Math.floor((ev.clientY - rect.top - top) / rowH);
      var r = rows[i];
      if (!r) { canvas.removeAttribute('title'); return; }
      var j = Math.floor((ev.clientX - rect.left - labelW) / plotW * span / r.width);
      if (j < 0 || j >= r.busy.length) { canvas.setAttribute('title', r.title); return; }
      canvas.setAttribute('title', r.title + ': ' + fmtNs(Math.round(j * r.width)) + ' to ' + fmtNs(Math.round((j + 1) * r.width)) +
                          ', ' + (o.tip ? o.tip(r, j) : (100 * r.busy[j]).toFixed(1) + '% busy'));
    });
    box.setAttribute('data-rows', String(rows.length));
    box.setAttribute('data-marks', String(cells));
  }

  /* More than two GPUs: a heat map row each; else a line each. */
  function timeline(inp) {
    var tl = inp.timeline;
    var n = tl.devices.length ? tl.devices[0].busy.length : 0;
    if (!n) {
      absent('timeline', 'chart-timeline', 'No busy timeline: the trace has no GPU work to put on one.');
      return;
    }
    if (tl.devices.length > 2) {
      byId('chart-timeline').style.display = 'none';
      byId('timeline-caption').textContent = 'A row per GPU, a column per time bucket (' + n + ' of ' + fmtNs(tl.width) +
        '): the darker, the larger the share of the bucket in which the GPU ran work; light stripes are idle gaps.  Hover for the figures.';
      heatmap(tl.devices.map(function (d) {
        return { label: 'GPU ' + d.device, title: 'GPU ' + d.device, busy: d.busy, width: tl.width };
      }), 'ms from the start');
      return;
    }
    var labels = [];
    for (var i = 0; i < n; i++) labels.push(((i + 0.5) * tl.width / 1e6).toFixed(2));
    var chart = newChart('chart-timeline', {
      type: 'line',
      data: { labels: labels, datasets: tl.devices.map(function (d, j) {
        return { label: 'GPU ' + d.device + ' busy %', gpKind: 'line', borderColor: PALETTE[j % PALETTE.length],
                 pointRadius: 0, borderWidth: 1, data: d.busy.map(function (b) { return 100 * b; }) };
      }) },
      options: { scales: { x: { title: { display: true, text: 'ms from the start (' + n + ' buckets of ' + fmtNs(tl.width) + ')' } },
                           y: { min: 0, max: 100, title: { display: true, text: 'busy % of each bucket' } } } }
    });
    setMarks('chart-timeline', chartMarks(chart));
  }

  function memory(inp) {
    var note = byId('memory-note');
    if (!inp.memory.length) {
      note.textContent = 'The trace has no allocator events (record with profile_memory=True, or nsys --cuda-memory-usage=true).';
      byId('chart-memory').style.display = 'none';
      setMarks('chart-memory', 0);
      return;
    }
    var m0 = inp.memory[0], n = m0.series.length, w = (m0.end - m0.start) / n, labels = [];
    for (var i = 0; i < n; i++) labels.push(((i + 0.5) * w / 1e6).toFixed(2));
    var ds = [];
    note.textContent = inp.memory.map(function (m) {
      return 'GPU ' + m.device + ': peak ' + fmtBytes(m.peak) + ' allocated at ' + fmtNs(m.peak_ts - origin(inp)) +
             ' from the trace start' + (m.peak_reserved >= 0 ? ', ' + fmtBytes(m.peak_reserved) + ' reserved at most' : '');
    }).join('; ');
    inp.memory.forEach(function (m, j) {
      ds.push({ label: 'GPU ' + m.device + ' allocated (GiB)', gpKind: 'line', borderColor: PALETTE[(2 * j) % PALETTE.length],
                pointRadius: 0, borderWidth: 1, data: m.series.map(function (s) { return s ? s[0] / 1073741824 : null; }) });
      if (m.peak_reserved >= 0)
        ds.push({ label: 'GPU ' + m.device + ' reserved (GiB)', gpKind: 'line', borderColor: PALETTE[(2 * j + 1) % PALETTE.length],
                  pointRadius: 0, borderWidth: 1, borderDash: [4, 3],
                  data: m.series.map(function (s) { return s && s[1] >= 0 ? s[1] / 1073741824 : null; }) });
    });
    var chart = newChart('chart-memory', {
      type: 'line',
      data: { labels: labels, datasets: ds },
      options: { scales: { x: { title: { display: true, text: 'ms from the start' } }, y: { title: { display: true, text: 'GiB' } } } }
    });
    setMarks('chart-memory', chartMarks(chart));
  }

  /*
   * A small timeline in box (an element): title, then the kernels near
   * (rows [start, end, name], ns from the focus' start) on lanes where they
   * overlap, and the focus [0, len): an idle gap drawn hatched (isGap) or
   * the kernel among them that starts at 0 and lasts len drawn red.
   * data-marks: the cells drawn.
   */
  function nearView(box, title, near, len, isGap) {
    var items = near.map(function (n) { return { s: n[0], e: n[1], name: n[2] }; });
    if (isGap) items.push({ s: 0, e: len, name: 'idle ' + fmtNs(len), gap: true });
    else items.some(function (it) { return it.s === 0 && it.e === len ? (it.focus = true) : false; });
    var lo = 0, hi = len;
    items.forEach(function (it) { if (it.s < lo) lo = it.s; if (it.e > hi) hi = it.e; });
    if (hi <= lo) hi = lo + 1;
    items.sort(function (a, b) { return a.s - b.s; });
    var laneEnd = [];
    items.forEach(function (it) {
      var l = 0;
      while (l < laneEnd.length && laneEnd[l] > it.s) l++;
      laneEnd[l] = it.e;
      it.lane = l;
    });
    box.textContent = '';
    box.appendChild(el('h3', title));
    var strip = el('div', null, { class: 'near' });
    strip.style.height = (20 * Math.max(1, laneEnd.length) + 2) + 'px';
    box.appendChild(strip);
    var px = strip.clientWidth || 1200;
    items.forEach(function (it) {
      var w = (it.e - it.s) / (hi - lo), room = Math.floor(w * px / 6);
      var d = el('div', room >= 4 ? shorten(it.name, room) : '', {
        title: it.name + ': ' + fmtNs(it.e - it.s) + ', ' + (it.s >= 0 ? '+' : '-') + fmtNs(Math.abs(it.s)) + ' from the ' + (isGap ? 'gap' : 'kernel') + '\'s start',
        class: it.gap ? 'gap' : it.focus ? 'focus' : '' });
      d.style.left = (100 * (it.s - lo) / (hi - lo)) + '%';
      d.style.width = 'max(2px, ' + (100 * w) + '%)';
      d.style.top = (1 + 20 * it.lane) + 'px';
      strip.appendChild(d);
    });
    var axis = el('div', null, { class: 'near-axis' });
    axis.appendChild(el('span', '-' + fmtNs(-lo)));
    axis.appendChild(el('span', (isGap ? 'the gap' : 'the kernel') + ' starts at 0; its GPU\'s other kernels around it, overlapping ones on lanes below'));
    axis.appendChild(el('span', '+' + fmtNs(hi)));
    box.appendChild(axis);
    box.setAttribute('data-marks', String(items.length));
  }

  function kernels(inp) {
    function show(k) {
      nearView(byId('kernel-detail'), 'The longest launch of ' + shorten(k.label || k.name, NAME_CHARS) + ' (' + fmtNs(k.at[1] - k.at[0]) +
               ', GPU ' + k.device + ', at ' + fmtNs(k.at[0] - origin(inp)) + ' from the trace start)', k.near, k.at[1] - k.at[0], false);
    }
    var near = inp.top_kernels.some(function (k) { return k.near; });
    if (!near) byId('kernels-caption').hidden = true;
    table('table-kernels', [
      { key: 'name', title: 'Kernel', label: function (v, r) { return r.label || v; } },
      { key: 'ns', title: 'GPU time', num: true, fmt: fmtNs },
      { key: 'share', title: 'Share of GPU time', num: true, fmt: function (v) { return (100 * v).toFixed(1) + '%'; } },
      { key: 'ns', title: '', bar: true, fmt: fmtNs },
      { key: 'count', title: 'Calls', num: true },
      { key: 'mean', title: 'Mean', num: true, fmt: function (v) { return fmtNs(Math.round(v)); } }
    ], inp.top_kernels.map(function (k) {
      return { name: k.name, label: k.label, ns: k.ns, count: k.count, share: inp.gpu_ns ? k.ns / inp.gpu_ns : 0, mean: k.count ? k.ns / k.count : 0,
               other: 'groups' in k, k: k };
    }), near ? { sortKey: 'ns', onRow: function (r) { show(r.k); } } : { sortKey: 'ns' });
  }

  /* Where a gap lies among the steps of its GPU (the page's data: step,
     step_before, step_after): never "n/a". */
  function stepLabel(g) {
    if (g.step >= 0) return 'step ' + g.step;
    if (g.step_before >= 0 && g.step_after >= 0) return 'between steps ' + g.step_before + ' and ' + g.step_after;
    if (g.step_after >= 0) return 'before step ' + g.step_after + ' (the first)';
    if (g.step_before >= 0) return 'after step ' + g.step_before + ' (the last)';
    return 'outside any step (none marked)';
  }

  /* The gaps' table (rows: lead columns first) and, for the longest one
     and any row clicked, its small timeline. */
  function gapTable(rows, lead, startTitle) {
    function show(r) {
      var g = r.g;
      nearView(byId('gap-detail'), 'Idle gap of ' + fmtNs(g.ns) + ' on ' + (r.rank !== undefined ? 'rank ' + r.rank + ' ' : '') + 'GPU ' + g.device +
               ', ' + fmtNs(r.start) + ' from the ' + (r.rank !== undefined ? 'rank\'s ' : '') + 'trace start, ' + r.step + ': ' + g.cause, g.near || [], g.ns, true);
    }
    table('table-gaps', lead.concat([
      { key: 'device', title: 'GPU', num: true },
      { key: 'step', title: 'Step', tag: true },
      { key: 'start', title: startTitle, num: true, fmt: fmtNs },
      { key: 'ns', title: 'Length', num: true, fmt: fmtNs },
      { key: 'cause', title: 'Cause', tag: true },
      { key: 'name', title: 'What the CPU was doing' }
    ]), rows, { sortKey: 'ns', onRow: show });
    var longest = rows.slice().sort(function (a, b) { return b.ns - a.ns; })[0];
    if (longest) show(longest);
  }

  function gaps(inp) {
    gapTable(inp.gaps.map(function (g) {
      return { device: g.device, step: stepLabel(g), start: g.start - origin(inp), ns: g.ns, cause: g.cause, name: g.context || '',
               other: false, g: g };
    }), [], 'Start (from the trace start)');
  }

  function phases(inp) {
    var ph = inp.phases;
    if (!ph || !ph.length) return;
    byId('phases').hidden = false;
    var all = ph.reduce(function (s, p) { return s + p.gpu_ns; }, 0);
    table('table-phases', [
      { key: 'name', title: 'Phase' },
      { key: 'steps', title: 'Steps', num: true },
      { key: 'kernels', title: 'Kernels', num: true },
      { key: 'gpu_ns', title: 'GPU time', num: true, fmt: fmtNs, bar: true },
      { key: 'share', title: 'Share of GPU time', num: true, fmt: function (v) { return (100 * v).toFixed(1) + '%'; } },
      { key: 'idle_ns', title: 'Idle in its steps', num: true, fmt: fmtNs },
      { key: 'idle_share', title: 'Idle share', num: true, fmt: function (v) { return (100 * v).toFixed(1) + '%'; } }
    ], ph.map(function (p) {
      return { name: p.name || '(none)', steps: p.steps, kernels: p.kernels, gpu_ns: p.gpu_ns,
               share: all ? p.gpu_ns / all : 0, idle_ns: p.idle_ns, idle_share: p.window_ns ? p.idle_ns / p.window_ns : 0,
               other: false };
    }), { sortKey: 'gpu_ns' });
  }

  function critical(inp) {
    var c = inp.critical;
    if (!c || !c.causes) {
      byId('critical').hidden = true;
      return;
    }
    var t = byId('critical-causes'), hr = el('tr'), tr = el('tr'), shown = 0;
    hr.appendChild(el('th', 'Path'));
    tr.appendChild(el('td', fmtNs(c.span)));
    c.causes.forEach(function (name, i) {
      if (!c.by_cause[i]) return;
      hr.appendChild(el('th', name));
      tr.appendChild(el('td', fmtNs(c.by_cause[i]) + ' (' + pct(c.by_cause[i], c.span) + ' of the path)'));
      shown++;
    });
    t.appendChild(hr);
    t.appendChild(tr);
    setMarks('critical-causes', shown);
    table('table-critical', [
      { key: 'cause', title: 'Cause', tag: true },
      { key: 'name', title: 'Op, kernel or call' },
      { key: 'layer', title: 'Layer' },
      { key: 'pass', title: 'Pass' },
      { key: 'ns', title: 'Time on the path', num: true, fmt: fmtNs },
      { key: 'share', title: 'Share of the path', num: true, fmt: function (v) { return (100 * v).toFixed(1) + '%'; } }
    ], c.rows.map(function (r) {
      return { cause: r.cause, name: r.op, layer: r.layer, pass: r.pass, ns: r.ns, share: c.span ? r.ns / c.span : 0, other: false };
    }), { sortKey: 'ns' });
  }

  /* The verdict: advise's header (how busy the GPU was in its span, the
     steps) and the finding that saves the most, in one paragraph. */
  function verdict(inp) {
    var v = inp.verdict, p = byId('verdict');
    var text = 'GPU busy ' + fmtNs(Math.round(v.busy)) + ' of its ' + fmtNs(Math.round(v.span)) + ' span (' + pct(v.busy, v.span) + ')' +
      (v.devices > 1 ? ' over ' + v.devices + ' GPUs' : '') +
      (v.steps > 1 ? '; ' + v.steps + ' steps, median ' + fmtNs(Math.round(v.step_ns)) : v.steps === 1 ? '; one step' : '; no steps marked') + '. ';
    var best = inp.advice.filter(function (a) { return !a.notice; })[0];
    text += best ? 'The largest saving: ' + best.title + ', about ' + fmtNs(Math.round(best.ns)) + ' (' +
                   (100 * best.share).toFixed(1) + '% of the GPU span).'
                 : 'No change found that saves more than 0.1% of the GPU span.';
    p.textContent = text;
  }

  function advice(inp) {
    var ol = byId('advice-list');
    /* none: the verdict above says so */
    inp.advice.forEach(function (a) {
      var li = el('li', null, { 'data-kind': a.kind });
      li.appendChild(el('strong', a.title));
      li.appendChild(el('span', a.notice ? ' [' + a.kind + ']'
                        : ' saves ' + fmtNs(Math.round(a.ns)) + ' (' + (100 * a.share).toFixed(1) + '% of the GPU span)' +
                          /* as advise says it: alone too when that differs */
                          (a.alone !== undefined && a.share > 0 && Math.abs(a.alone - a.ns) > 1e-3 * a.ns / a.share
                           ? '; alone ' + fmtNs(Math.round(a.alone)) : '') +
                          ', ' + a.count + ' involved [' + a.kind + ']', { class: 'at-stake' }));
      if (!a.notice && a.shared > 0)
        li.appendChild(el('p', 'Shared: ' + fmtNs(Math.round(a.shared)) + ' more alone, saved too by the changes above' +
                          (a.shared_with ? ' [' + a.shared_with + ']' : '')));
      li.appendChild(el('p', 'Evidence: ' + a.evidence));
      li.appendChild(el('p', 'Change: ' + a.change));
      ol.appendChild(li);
    });
    setMarks('advice', inp.advice.length);
    var ul = byId('notes');
    inp.notes.forEach(function (n) { ul.appendChild(el('li', n)); });
    if (!inp.notes.length) byId('notes-section').style.display = 'none';
  }

  /* ---- a page over several ranks: data.job, data.inputs[i] is rank job.ranks[i] ---- */

  function rankName(job, i) { return 'rank ' + job.ranks[i].rank; }

  /* A cell format for a figure at collectives: '-' where the traces cannot tell (-1). */
  function known(fmt) { return function (v) { return v < 0 ? '-' : fmt(v); }; }

  /* The job's GPUs: each rank's devices that ran kernels (a rank's file
     lists every GPU of its node: 8 files of one 8-GPU node are 8 GPUs,
     not 64); a file whose devices ran none counts all it lists. */
  function jobGpus(inputs) {
    var listed = 0, used = [].concat.apply([], inputs.map(function (inp) {
      var ran = inp.devices.filter(function (d) { return d.kernels > 0; });
      listed += inp.devices.length;
      return ran.length ? ran : inp.devices;
    }));
    return gpuSummary(used) + (used.length < listed ? ' (those that ran kernels; the files list ' + listed + ', each its node\'s)' : '');
  }

  /* The facts of the job and a sortable row per rank. */
  function jobFacts(data) {
    var job = data.job, dl = byId('facts');
    function fact(k, v) { dl.appendChild(el('dt', k)); dl.appendChild(el('dd', v)); }
    fact('Ranks', job.ranks.length + ' files');
    fact('GPUs', jobGpus(data.inputs));
    fact('Kernels', job.kernels + ' (' + fmtNs(job.gpu_ns) + ' of GPU time' + (job.only_rank >= 0 ? ', rank ' + job.only_rank : '') + ')');
    fact('Tables and roofline', job.only_rank >= 0 ? 'rank ' + job.only_rank + ' alone (--rank)' : 'every rank\'s kernels summed by name');
    fact('Straggler', job.straggler >= 0 ? 'rank ' + job.straggler + ' (the others waited longest for it at the ' + job.collectives + ' collectives matched on every rank)'
         : job.collectives ? 'none at the ' + job.collectives + ' collectives matched on every rank (that rank would arrive last at more than half of them and cause more than a quarter of the waiting)'
         : 'unknown (no collective is matched on every rank: the traces cannot tell who waits)');
    fact('Median step skew', fmtNs(job.skew) + ' (' + job.skew_pct.toFixed(2) + '%: slowest rank\'s median step minus the fastest\'s; a slow step is no straggler)');
    var a2a = job.a2a;
    if (a2a)   /* expert parallelism: what the ranks send at all-to-all calls (comm --view a2a) */
      fact('All-to-all', a2a.calls + ' calls matched on every rank; largest / mean: ' + a2a.rank_imbalance.toFixed(2) + ' across ranks (bytes sent), '
           + (a2a.peer_imbalance >= 0 ? a2a.peer_imbalance.toFixed(2) + ' across peers (rank ' + a2a.peer_hot + ' receives the most, ' + fmtBytes(a2a.peer_hot_bytes) + ')'
              : 'unknown across peers (no split sizes recorded: a hot peer cannot be told)')
           + '; waiting at them ' + fmtNs(a2a.wait) + (a2a.late_rank >= 0 ? ', ' + fmtNs(a2a.late_caused) + ' of it for rank ' + a2a.late_rank : '')
           + '; transfer ' + fmtNs(a2a.transfer));
    var cp = job.critical_path;
    fact('Critical path', !cp.known ? 'unknown: ' + cp.why
         : fmtNs(cp.length) + ' from the job\'s end back across ' + (cp.jumps ? cp.jumps + ' jump' + (cp.jumps > 1 ? 's' : '') + ' to a rank the others waited for' : 'no other rank')
           + (job.ranks.length > 1 && !cp.meets_collective ? ' (it reaches no collective: the traces record nothing a step\'s end waited for on the GPU, so it cannot tell who waited for whom; the straggler above is by arrival)' : '')
           + (cp.top.length ? '; largest pieces: ' + cp.top.slice(0, 3).map(function (x) {
               return 'rank ' + x.rank + ' ' + x.cause + (x.op ? ' ' + x.op : '') + ' ' + fmtNs(x.ns); }).join(', ') : ''));
    byId('table-ranks').hidden = false;
    table('table-ranks', [
      { key: 'rank', title: 'Rank', num: true },
      { key: 'name', title: 'File', label: function (v) { return shorten(gpPage.baseName(v), 40); } },
      { key: 'gpu', title: 'GPU' },
      { key: 'kernels', title: 'Kernels', num: true },
      { key: 'gpu_ns', title: 'GPU time', num: true, fmt: fmtNs },
      { key: 'span', title: 'Span', num: true, fmt: fmtNs },
      { key: 'compute', title: 'Compute', num: true, fmt: fmtNs },
      { key: 'comm', title: 'Comm', num: true, fmt: fmtNs },
      { key: 'memory', title: 'Memory', num: true, fmt: fmtNs },
      { key: 'idle', title: 'Idle', num: true, fmt: fmtNs },
      { key: 'steps', title: 'Steps', num: true },
      { key: 'step_median', title: 'Median step', num: true, fmt: fmtNs },
      { key: 'vs_fastest', title: 'vs fastest', num: true, fmt: function (v, r) { return '+' + fmtNs(v) + ' (' + r.vs_fastest_pct.toFixed(2) + '%)'; } },
      { key: 'wait', title: 'Waited', num: true, fmt: known(fmtNs) },
      { key: 'caused', title: 'Caused', num: true, fmt: known(fmtNs) },
      { key: 'times_last', title: 'Last at', num: true, fmt: known(String) },
      { key: 'critical', title: 'On critical path', num: true, fmt: known(function (v) {
          return fmtNs(v) + (cp.length > 0 ? ' (' + (100 * v / cp.length).toFixed(1) + '%)' : ''); }) },
      { key: 'role', title: 'Role' }
    ].concat(a2a ? [{ key: 'a2a_sent', title: 'All-to-all sent', num: true, fmt: known(fmtBytes) }] : []), job.ranks.map(function (r, i) {
      var inp = data.inputs[i];
      var gpus = inp.devices.map(function (d) { return d.gpu || d.name || 'GPU ' + d.id; });
      return { rank: r.rank, name: r.path, gpu: gpus.filter(function (g, k) { return gpus.indexOf(g) === k; }).join(', '),
               kernels: inp.kernels, gpu_ns: inp.gpu_ns, span: r.span, compute: r.compute, comm: r.comm, memory: r.memory,
               idle: r.idle, steps: r.steps.length, step_median: r.step_median, vs_fastest: r.vs_fastest,
               vs_fastest_pct: r.vs_fastest_pct, wait: r.wait, caused: r.caused, times_last: r.times_last,
               critical: r.critical, role: r.role, a2a_sent: r.a2a_sent, other: false };
    }), { sortKey: 'rank', ascending: true });
    byId('devices').hidden = true;
    document.title = 'gpuprof report: ' + job.ranks.length + ' ranks';
    byId('title').textContent = job.ranks.length + ' ranks';
  }

  /* One stacked bar per rank: its whole-trace windows summed over its GPUs. */
  function rankBreakdown(data) {
    var job = data.job, kinds = ['compute', 'comm', 'memory', 'overlap', 'idle'];
    var names = { compute: 'compute', comm: 'communication', memory: 'memory', overlap: 'overlap', idle: 'idle' };
    byId('breakdown-title').textContent = 'Where the time goes, per rank';
    byId('breakdown-note').textContent = 'Each bar is one rank\'s whole trace summed over its GPUs: time with only compute, ' +
      'only communication or only memory work, with several at once (overlap), and idle time.';
    var sums = data.inputs.map(function (inp) {
      var s = { compute: 0, comm: 0, memory: 0, overlap: 0, idle: 0 };
      inp.breakdown.forEach(function (w) { if (w.iter < 0) kinds.forEach(function (k) { s[k] += w[k]; }); });
      return s;
    });
    var chart = newChart('chart-breakdown', {
      type: 'bar',
      data: {
        labels: job.ranks.map(function (r, i) { return rankName(job, i); }),
        datasets: kinds.map(function (k) {
          return { label: names[k], gpKind: 'bar', backgroundColor: COLORS[k], data: sums.map(function (s) { return s[k] / 1e6; }) };
        })
      },
      options: {
        scales: { x: { stacked: true }, y: { stacked: true, title: { display: true, text: 'ms' } } },
        plugins: { tooltip: { callbacks: { label: function (c) { return c.dataset.label + ': ' + fmtNs(Math.round(c.raw * 1e6)); } } } }
      }
    });
    byId('chart-breakdown').setAttribute('data-bars', String(chart.getDatasetMeta(0).data.length));
    setMarks('chart-breakdown', chartMarks(chart));
    var rows = [];
    data.inputs.forEach(function (inp, i) {
      inp.breakdown.filter(function (w) { return w.iter < 0; }).forEach(function (w) {
        rows.push({ lead: [job.ranks[i].rank], w: w, co: commOf(inp, w.device) });
      });
    });
    idleTable(data.inputs[0].idle_causes, ['Rank'], rows);
  }

  /* A line per rank of its step times by iteration; each iteration's slowest rank drawn large and red. */
  function rankSteps(data) {
    var job = data.job, iters = job.steps.map(function (s) { return s.iter; });
    var slowest = {};
    /* no slowest rank where every rank took the same time */
    job.steps.forEach(function (s) { if (s.slowest_ns > s.fastest_ns) slowest[s.iter] = s.slowest_rank; });
    byId('steps-note').hidden = false;
    byId('steps-caption').hidden = true;
    var chart = newChart('chart-steps', {
      type: 'line',
      data: {
        labels: iters.map(function (i) { return i < 0 ? 'whole trace' : 'iter ' + i; }),
        datasets: job.ranks.map(function (r, j) {
          var at = {};
          r.steps.forEach(function (s) { at[s[0]] = s[1]; });
          var big = iters.map(function (i) { return slowest[i] === r.rank && i in at; });
          return { label: rankName(job, j), gpKind: 'line', borderColor: PALETTE[j % PALETTE.length],
                   backgroundColor: PALETTE[j % PALETTE.length], borderWidth: 1, spanGaps: true,
                   pointRadius: big.map(function (b) { return b ? 6 : 2; }),
                   pointBackgroundColor: big.map(function (b) { return b ? '#d62728' : PALETTE[j % PALETTE.length]; }),
                   data: iters.map(function (i) { return i in at ? at[i] / 1e6 : null; }) };
        })
      },
      options: { scales: { y: { title: { display: true, text: 'ms per iteration' } } },
                 /* past 8 ranks a legend of every rank would crowd out the chart: the tooltip names the line */
                 plugins: { legend: { display: job.ranks.length <= 8 }, tooltip: { callbacks: { label: function (c) {
                   var it = iters[c.dataIndex];
                   return c.dataset.label + ': ' + fmtNs(Math.round(c.raw * 1e6)) + (slowest[it] === job.ranks[c.datasetIndex].rank ? ' (slowest)' : '');
                 } } } } }
    });
    /* points drawn per series (a rank without an iteration has none there) */
    var per = chart.data.datasets.map(function (ds, i) {
      return chart.getDatasetMeta(i).data.filter(function (p) { return !p.skip; }).length;
    });
    var box = byId('chart-steps');
    box.setAttribute('data-series', String(per.length));
    box.setAttribute('data-points', per.join(','));
    box.setAttribute('data-slowest', iters.map(function (i) { return i in slowest ? slowest[i] : ''; }).join(','));
    setMarks('chart-steps', per.reduce(function (a, b) { return a + b; }, 0));
    byId('table-steps').hidden = false;
    table('table-steps', [
      { key: 'name', title: 'Iteration' },
      { key: 'ranks', title: 'Ranks', num: true },
      { key: 'median', title: 'Median', num: true, fmt: fmtNs },
      { key: 'fastest_rank', title: 'Fastest rank', num: true },
      { key: 'fastest_ns', title: 'Fastest', num: true, fmt: fmtNs },
      { key: 'slowest_rank', title: 'Slowest rank', num: true },
      { key: 'slowest_ns', title: 'Slowest', num: true, fmt: fmtNs },
      { key: 'skew', title: 'Skew', num: true, fmt: fmtNs }
    ], job.steps.map(function (s) {
      return { name: s.iter < 0 ? 'whole trace' : String(s.iter), iter: s.iter, ranks: s.ranks, median: s.median,
               fastest_rank: s.fastest_rank, fastest_ns: s.fastest_ns, slowest_rank: s.slowest_rank,
               slowest_ns: s.slowest_ns, skew: s.slowest_ns - s.fastest_ns, other: false };
    }), { sortKey: 'iter', ascending: true });
  }

  /* A line per rank and GPU; x in ms from the rank's own first event (ranks' clocks differ). */
  function rankLines(id, data, series, ytitle, ymax) {
    var ds = [];
    data.inputs.forEach(function (inp, i) { series(inp, rankName(data.job, i)).forEach(function (s) { ds.push(s); }); });
    ds.forEach(function (s, j) {
      s.gpKind = 'line'; s.pointRadius = 0; s.borderWidth = 1;
      s.borderColor = PALETTE[j % PALETTE.length];
    });
    var y = { title: { display: true, text: ytitle } };
    if (ymax) { y.min = 0; y.max = ymax; }
    var chart = newChart(id, {
      type: 'line',
      data: { datasets: ds },
      options: { parsing: true, scales: { x: { type: 'linear', title: { display: true, text: 'ms from the rank\'s first event' } }, y: y } }
    });
    setMarks(id, chartMarks(chart));
  }

  /* A heat map row per rank and GPU (readable at 64 ranks, where lines would overlap). */
  function rankTimeline(data) {
    var rows = [];
    data.inputs.forEach(function (inp, i) {
      var tl = inp.timeline, r = data.job.ranks[i];
      tl.devices.forEach(function (d) {
        var gpu = tl.devices.length > 1 ? ' GPU ' + d.device : '';
        rows.push({ label: rankName(data.job, i) + gpu, title: rankName(data.job, i) + gpu + ' (' + r.path + ')', busy: d.busy, width: tl.width });
      });
    });
    byId('chart-timeline').style.display = 'none';
    setMarks('chart-timeline', 0);
    byId('timeline-caption').textContent = 'A row per rank (and GPU), a column per time bucket, in ms from the rank\'s own first ' +
      'event: the darker, the larger the share of the bucket in which the GPU ran work; light stripes are idle gaps, ' +
      'a stripe down every row a pause of the whole job.  Hover for the figures.';
    if (!rows.length) { absent('timeline', 'chart-timeline', 'No busy timeline: no rank has GPU work.'); return; }
    heatmap(rows, 'ms from the rank\'s first event');
  }

  function rankMemory(data) {
    var notes = [];
    data.inputs.forEach(function (inp, i) {
      inp.memory.forEach(function (m) {
        notes.push(rankName(data.job, i) + ' GPU ' + m.device + ': peak ' + fmtBytes(m.peak) + ' at ' + fmtNs(m.peak_ts - origin(inp)) + ' from its trace start');
      });
    });
    if (!notes.length) return memory({ memory: [] });
    byId('memory-note').textContent = notes.join('; ');
    /* a row per rank and GPU, the colour the bytes allocated as a share
       of the job's highest: lines of many ranks would lie on each other */
    var rows = [], peak = 0;
    data.inputs.forEach(function (inp, i) {
      inp.memory.forEach(function (m) {
        var name = rankName(data.job, i) + ' GPU ' + m.device;
        m.series.forEach(function (s) { if (s && s[0] > peak) peak = s[0]; });
        rows.push({ label: name, title: name, m: m, width: (m.end - m.start) / m.series.length });
      });
    });
    rows.forEach(function (r) { r.busy = r.m.series.map(function (s) { return s && peak ? s[0] / peak : 0; }); });
    byId('chart-memory').style.display = 'none';
    byId('memory-caption').textContent = 'A row per rank and GPU, a column per time bucket: the darker, ' +
      'the more bytes the allocator held (each bucket\'s highest), as a share of the job\'s highest (' + fmtBytes(peak) + ').  Hover for the figures.';
    heatmap(rows, 'ms from the rank\'s first event', { box: 'memory-heatmap', low: '0 B', high: 'highest',
      tip: function (r, j) { var s = r.m.series[j]; return s ? fmtBytes(s[0]) + ' allocated' : 'no event'; } });
  }

  function rankGaps(data) {
    var rows = [];
    data.inputs.forEach(function (inp, i) {
      inp.gaps.forEach(function (g) {
        rows.push({ rank: data.job.ranks[i].rank, device: g.device, step: stepLabel(g), start: g.start - origin(inp), ns: g.ns,
                    cause: g.cause, name: g.context || '', other: false, g: g });
      });
    });
    gapTable(rows, [{ key: 'rank', title: 'Rank', num: true }], 'Start (from the rank\'s trace start)');
  }

  /* The job's verdict: the ranks, who the others waited for, the step
     skew, and the job's finding that saves it the most. */
  function jobVerdict(data) {
    var job = data.job, best = null;
    (job.advice || []).forEach(function (a) { if (!a.notice && (!best || a.ns > best.ns)) best = a; });
    byId('verdict').textContent = job.ranks.length + ' ranks; ' +
      (job.straggler >= 0 ? 'the others waited longest for rank ' + job.straggler + ' at collectives (the straggler)'
       : job.collectives ? 'no straggler at the ' + job.collectives + ' collectives matched on every rank'
       : 'no collective is matched on every rank, so who waits for whom is unknown') +
      '; median step skew ' + fmtNs(job.skew) + ' (' + job.skew_pct.toFixed(2) + '%). ' +
      (best ? 'The largest saving: ' + best.title + ', about ' + fmtNs(Math.round(best.ns)) + ' (' +
              (100 * best.share).toFixed(1) + '% of the job\'s GPU span).' : 'No change found that saves the job more than 0.1% of its GPU span.');
  }

  /* The job's findings as advise DIR gives them (the ranks' findings
     judged in the job and merged by kind, "ranks 0-5: ...", with the
     straggler's, ranked by what each saves the job); notes by rank. */
  function rankAdvice(data) {
    var notes = [];
    data.inputs.forEach(function (inp, i) {
      var name = rankName(data.job, i);
      inp.notes.forEach(function (n) { notes.push(name + ': ' + n); });
    });
    advice({ advice: (data.job.advice || []).slice(0, data.job.top), notes: notes });
  }

  function main() {
    if (typeof Chart !== 'function') throw new Error('the charting library (Chart.js) is missing from the page');
    var data = JSON.parse(byId('gp-data').textContent);
    var job = data.job;
    Chart.defaults.font.size = 12;
    /* the job's tables are drawn as one input's */
    /* the verdict and findings first, then where the time goes, then the details (the template's order) */
    var draw = job ? [[jobVerdict, data], [rankAdvice, data], [jobFacts, data], [rankBreakdown, data], [rankSteps, data],
                      [layers, job], [ops, job], [kernels, job], [rankGaps, data], [rankTimeline, data], [rankMemory, data],
                      [roofline, job], [critical, {}]]
                   : [verdict, advice, facts, breakdown, phases, steps, layers, commLayers, ops, kernels, gaps, timeline, memory,
                      roofline, critical].map(function (f) {
                       return [f, data.inputs[0]];
                     });
    draw.forEach(function (d) {
      try {
        d[0](d[1]);
      } catch (e) {
        showError('drawing ' + d[0].name + ': ' + e.message);
      }
    });
    var r = byId('report');
    if (r.getAttribute('data-state') === 'loading') r.setAttribute('data-state', 'done');
    /* the section a link names (page.html#timeline), now that the charts above it have their height */
    var target = location.hash && byId(location.hash.slice(1));
    if (target) target.scrollIntoView();
    /* from the start of navigation to the last chart drawn (docs/PERFORMANCE.md) */
    r.setAttribute('data-drawn-ms', String(Math.round(performance.now())));
  }

  try {
    main();
  } catch (e) {
    showError(e.message);
  }
})();

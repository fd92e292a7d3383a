/*
 * gpuprof html: the views of the layer section (share/html/layers.js,
 * docs/html.md), inlined before report.js: the kernels' time by module
 * type or by layer path, at a depth, as the page's data gives them
 * (inp.layer_views: gpuprof groups them as `summary --by module-type|layer
 * --depth N` does; nothing is summed here), and the sentence on what to
 * record when layers cover little of the GPU time (its advice is
 * gpuprof's, GP_LAYER_RECORD).  The page of a job draws the job's views,
 * summed over its ranks by gpuprof (data.job.layer_views).
 */
var gpLayers = (function () {
  'use strict';

  var byId = gpPage.byId, el = gpPage.el;

  /* The view of lv read `by` ("module-type" or "path") at depth (0: all levels), or null. */
  function find(lv, by, depth) {
    return lv.views.filter(function (v) { return v.by === by && v.depth === depth; })[0] || null;
  }

  /* The sentence on layer coverage: '' when layers cover enough of the GPU time. */
  function coverage(lv, fmtNs) {
    if (!lv.record) return '';
    var head = lv.layer_ns > 0
      ? 'Layers cover only ' + (100 * lv.layer_ns / lv.gpu_ns).toFixed(1) + '% of GPU time (' + fmtNs(lv.layer_ns) +
        ' of ' + fmtNs(lv.gpu_ns) + '); the rest ran under no layer.  '
      : 'No layers: no kernel of this trace ran inside a module or range that names a layer, so all its GPU time is ' +
        'under no layer.  ';
    return head + lv.record;
  }

  /*
   * Draws the views of inp in #layer-views: a switch (by module type, by
   * path), a depth (all levels, or the first N), and the chosen view's
   * table, longest first, its "no layer" row with its share; and the
   * coverage sentence in #layers-record.  h: the report's helpers, table
   * and fmtNs, and pick(frames, exact): open the drill-down of the layers
   * under a path.  False when inp has no views.
   */
  function draw(inp, h) {
    var lv = inp.layer_views;
    if (!lv) return false;
    var say = coverage(lv, h.fmtNs), rec = byId('layers-record');
    rec.textContent = say;
    rec.hidden = !say;
    if (!lv.views.length) return true;
    var box = byId('layer-views'), state = { by: 'module-type', depth: 0 };
    var controls = el('div', null, { class: 'controls' });
    var buttons = {};
    [['module-type', 'By module type'], ['path', 'By path']].forEach(function (b) {
      var x = el('button', b[1], { type: 'button', 'data-by': b[0] });
      x.addEventListener('click', function () { state.by = b[0]; show(); });
      buttons[b[0]] = x;
      controls.appendChild(x);
    });
    var depth = el('select', null, { id: 'layer-depth' });
    depth.appendChild(el('option', 'all levels', { value: '0' }));
    for (var d = 1; d < lv.depth; d++) depth.appendChild(el('option', 'level ' + d, { value: String(d) }));
    depth.addEventListener('change', function () { state.depth = Number(depth.value); show(); });
    controls.appendChild(el('label', ' depth ', { for: 'layer-depth' }));
    controls.appendChild(depth);
    box.appendChild(controls);
    var caption = el('p', null, { class: 'note' });
    box.appendChild(caption);
    var tbl = el('div', null, { class: 'table', id: 'table-layer-view' });
    box.appendChild(tbl);
    box.hidden = false;

    function show() {
      var v = find(lv, state.by, state.depth);
      Object.keys(buttons).forEach(function (k) { buttons[k].className = k === state.by ? 'on' : ''; });
      caption.textContent = (state.by === 'module-type'
        ? 'GPU time by module class (the component without its instance number: Block_3 counts as Block), '
        : 'GPU time by layer path, ') +
        (state.depth ? 'cut at level ' + state.depth : 'at every level (the innermost ' +
         (state.by === 'module-type' ? 'module' : 'path') + ')') +
        ', as gpuprof summary --by ' + (state.by === 'module-type' ? 'module-type' : 'layer') +
        (state.depth ? ' --depth ' + state.depth : '') + ' gives it.' +
        (state.by === 'path' ? '  Click a row for its ops and kernels.' : '');
      tbl.textContent = '';
      h.table('table-layer-view', [
        { key: 'name', title: state.by === 'module-type' ? 'Module type' : 'Layer', keepEnd: true },
        { key: 'ns', title: 'GPU time', num: true, fmt: h.fmtNs },
        { key: 'share', title: 'Share of GPU time', num: true, fmt: function (x) { return (100 * x).toFixed(1) + '%'; } },
        { key: 'ns', title: '', bar: true, fmt: h.fmtNs },
        { key: 'count', title: 'Kernels', num: true }
      ], (v ? v.rows : []).map(function (r) {
        return { name: r.name, ns: r.ns, count: r.count, none: !!r.none, other: 'groups' in r,
                 share: lv.gpu_ns ? r.ns / lv.gpu_ns : 0 };
      }), { sortKey: 'ns', onRow: state.by === 'path' ? function (r) {
        if (!r.none) h.pick(h.frames(r.name), state.depth === 0);
      } : null });
      box.setAttribute('data-view', state.by + ':' + state.depth);
    }
    show();
    return true;
  }

  return { draw: draw };
})();

// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The HTML report's stylesheet and script, inline so the page needs nothing
// else. The script reads the embedded JSON (diff_html.cc documents its
// layout), wires clicks on Graphviz's SVG nodes, shows node details, finds
// nodes, and draws any node's neighbourhood on demand with a small layered
// layout (Graphviz is not in the browser). All text goes into the DOM through
// textContent or esc(), never as markup. With `#selftest` in the URL it
// exercises itself and writes the results to #gd-selftest for the browser test.
#include "report/visual_scene.h"

namespace graphdiff::visual {

const char kHtmlStyle[] = R"CSS(
body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;margin:0;color:#212121}
main{margin-right:30%;padding:0 16px 40px 16px}
h1 small{font-weight:normal;color:#616161;font-size:60%}
h2{border-bottom:1px solid #e0e0e0;margin-top:28px}
.gd-verdict{font-size:16px;padding:8px 12px;border-radius:6px;background:#fff3e0}
.gd-verdict.gd-same{background:#e8f5e9}
.gd-legend{margin:8px 0;color:#424242}
.gd-sw{display:inline-block;width:14px;height:12px;border:1px solid #9e9e9e;border-radius:3px;vertical-align:middle;margin:0 3px 0 8px}
.gd-sw-out{border:3px double #7b1fa2;width:10px;height:8px}
.gd-sw-sub{border:2px dashed #e65100}
.gd-sw-open{border:1px dashed #000}
.gd-search{margin:10px 0;position:sticky;top:0;background:#fff;padding:6px 0;z-index:2}
#gd-q{width:50%;font-size:15px;padding:5px}
#gd-qres{max-height:220px;overflow:auto}
#gd-qres a{display:block}
.gd-findings li{margin:3px 0}
.gd-findings details{margin-left:60px}
.gd-findings summary{color:#616161;font-size:12px;cursor:pointer}
.gd-show{font-size:12px}
.gd-sev{display:inline-block;min-width:56px;font-size:12px;text-transform:uppercase;font-weight:bold}
.gd-error .gd-sev{color:#c62828}.gd-warning .gd-sev{color:#ef6c00}.gd-info .gd-sev{color:#1565c0}
.gd-finding p{margin:2px 0;color:#424242}
.gd-evs{max-height:90px;overflow:auto;font-family:ui-monospace,monospace;font-size:12px}
.gd-evs a{margin-right:6px}
.gd-evt{color:#757575;margin-right:6px}
.gd-flash{background:#fff59d;transition:background 1s}
.gd-sides{display:flex;gap:12px;align-items:flex-start}
.gd-side,.gd-xside{flex:1 1 50%;min-width:0;border:1px solid #e0e0e0;border-radius:6px;padding:4px 8px}
.gd-side h3{margin:4px 0;font-size:14px}
.gd-counts{font-size:12px;color:#424242;margin:2px 0 6px 0}
.gd-svg{overflow:auto;max-height:80vh}
.gd-svg svg{width:100%;height:auto;max-height:78vh}
.gd-svg.gd-big svg{width:var(--w);max-height:none}
.gd-svg g.node,.gd-xside g.gx{cursor:pointer}
.gd-sel path,.gd-sel polygon,.gd-sel rect{stroke:#d50000!important;stroke-width:5px!important}
.gd-hl path,.gd-hl polygon,.gd-hl rect{stroke:#2962ff!important;stroke-width:6px!important}
.gd-warn{color:#b71c1c}
#gd-details{position:fixed;top:0;right:0;width:29%;height:100%;overflow:auto;border-left:1px solid #bdbdbd;background:#fafafa;padding:8px 10px;box-sizing:border-box;font-size:13px}
#gd-details h4{margin:10px 0 4px 0}
#gd-details table{border-collapse:collapse;width:100%}
#gd-details td{border-top:1px solid #e0e0e0;padding:2px 4px;vertical-align:top;word-break:break-all}
#gd-details td:first-child{color:#616161;width:70px;word-break:normal}
.gd-line{font-family:ui-monospace,monospace;font-size:12px;background:#fff;border:1px solid #e0e0e0;padding:4px;white-space:pre-wrap;word-break:break-all}
.gd-muted{color:#757575}
.gd-table{border-collapse:collapse}.gd-table td,.gd-table th{border:1px solid #e0e0e0;padding:2px 8px}
.gd-expanded{margin-top:10px}
.gd-xside svg{width:100%;height:auto}
)CSS";

const char kHtmlScript[] = R"JS(
(function () {
  'use strict';
  var errors = [];
  window.addEventListener('error', function (e) { errors.push(String(e.message)); });
  var origError = console.error;
  console.error = function () {
    errors.push(Array.prototype.join.call(arguments, ' '));
    origError.apply(console, arguments);
  };
  var D = JSON.parse(document.getElementById('gd-data').textContent);
  var SIDE = ['L', 'R'];
  var SIDE_NAME = ['left', 'right'];
  var FILL = [['#ffffff', '#ffe082', '#ef9a9a'], ['#ffffff', '#ffe082', '#a5d6a7']];
  var CHANGE = [['same', 'changed', 'removed (left only)'], ['same', 'changed', 'added (right only)']];
  var byPair = {};
  D.pairs.forEach(function (p) { byPair[p.pair] = p; });

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[c];
    });
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }
  function side(p, s) {
    var pd = byPair[p];
    if (!pd.loaded) {
      var block = JSON.parse(document.getElementById('gd-pair-' + p).textContent);
      [0, 1].forEach(function (k) {
        pd.sides[k].n = block[k].n; pd.sides[k].p = block[k].p; pd.sides[k].c = block[k].c;
      });
      pd.loaded = true;
    }
    return pd.sides[s];
  }
  function nodeOf(p, s, i) { return side(p, s).n[i]; }
  function partners(p, s, i) {
    var v = side(p, s).p[i];
    if (v == null || v < 0) return [];
    return typeof v === 'number' ? [v] : v;
  }
  function opnd(v) { return typeof v === 'number' ? v : v[0]; }
  var usersCache = {};
  function usersOf(p, s) {
    var key = p + SIDE[s];
    if (usersCache[key]) return usersCache[key];
    var n = side(p, s).n, u = new Array(n.length);
    for (var i = 0; i < n.length; i++) u[i] = [];
    for (var j = 0; j < n.length; j++) {
      var ops = n[j][8];
      for (var k = 0; k < ops.length; k++) {
        var o = opnd(ops[k]);
        if (o < n.length && u[o][u[o].length - 1] !== j) u[o].push(j);
      }
    }
    usersCache[key] = u;
    return u;
  }
  var findingsOf = {};
  D.findings.forEach(function (f, fi) {
    f.ev.forEach(function (e) {
      var k = e.join(',');
      (findingsOf[k] = findingsOf[k] || []).push(fi);
    });
  });
  function svgId(p, s, i) { return 'gd-' + p + '-' + SIDE[s] + '-' + i; }
  function xId(p, s, i) { return 'gx-' + p + '-' + SIDE[s] + '-' + i; }
  function marked(p, s, i) {
    return [document.getElementById(svgId(p, s, i)), document.getElementById(xId(p, s, i))]
        .filter(function (e) { return e; });
  }
  function clearMarks(cls) {
    Array.prototype.forEach.call(document.querySelectorAll('.' + cls), function (e) {
      e.classList.remove(cls);
    });
  }
  function mark(p, s, i, cls) {
    var es = marked(p, s, i);
    es.forEach(function (e) { e.classList.add(cls); });
    return es;
  }
  function line(p, s, i) {
    var sd = side(p, s), n = sd.n[i];
    var ops = n[8].map(function (v) {
      var o = opnd(v), name = o < sd.n.length ? sd.n[o][0] : '?';
      return typeof v === 'number' ? name : name + '.' + v[1];
    });
    var text = n[0] + ' = ' + (n[2] || n[1]) + '(' + ops.join(', ') + ')';
    n[9].forEach(function (a) { text += ', ' + a[0] + '=' + a[1]; });
    return text + ' : ' + n[4];
  }
  function nodeLink(p, s, i, label) {
    var a = el('a', 'gd-nl', label == null ? nodeOf(p, s, i)[0] : label);
    a.href = '#';
    a.dataset.p = p; a.dataset.s = s; a.dataset.i = i;
    return a;
  }
  function row(t, k, v) {
    var tr = el('tr');
    tr.appendChild(el('td', '', k));
    var td = el('td');
    if (v instanceof Node) td.appendChild(v); else td.textContent = v;
    tr.appendChild(td);
    t.appendChild(tr);
  }
  function links(p, s, list, max) {
    var span = el('span');
    list.slice(0, max).forEach(function (i) {
      span.appendChild(nodeLink(p, s, i));
      span.appendChild(document.createTextNode(' '));
    });
    if (list.length > max) span.appendChild(el('i', '', 'and ' + (list.length - max) + ' more'));
    return span;
  }
  function describe(box, p, s, i) {
    var sd = side(p, s), n = sd.n[i];
    var h = el('h4', '', SIDE_NAME[s] + ': ' + n[0] + '  ' + n[1]);
    box.appendChild(h);
    var t = el('table');
    row(t, 'change', CHANGE[s][n[6]] + (n[7] === 2 ? '; output only on this side' :
        n[7] === 1 ? '; graph output' : ''));
    var c = sd.c[i];
    if (c) row(t, 'why', c[0] + (c[1] ? ': ' + c[1] : '') + ' (matched by ' + c[2] + ')');
    row(t, 'op', n[1] + (n[2] && n[2] !== n[1] ? '  (' + n[2] + ')' : ''));
    row(t, 'kind', n[3]);
    row(t, 'type', n[4]);
    row(t, 'dump', sd.source + (n[5] ? ':' + n[5] : ''));
    if (n[11]) row(t, 'dump line', el('div', 'gd-line', n[11]));
    row(t, n[11] ? 'as parsed' : 'line', el('div', 'gd-line', line(p, s, i)));
    if (n[10]) row(t, 'frame', n[10]);
    n[9].forEach(function (a) { row(t, a[0], a[1]); });
    row(t, 'operands', links(p, s, n[8].map(opnd), 40));
    row(t, 'users', links(p, s, usersOf(p, s)[i], 40));
    var fs = findingsOf[[p, s, i].join(',')] || [];
    if (fs.length) {
      var span = el('span');
      fs.forEach(function (fi) {
        var a = el('a', 'gd-flink', D.findings[fi].id);
        a.href = '#finding-' + fi;
        a.dataset.f = fi;
        span.appendChild(a);
        span.appendChild(document.createTextNode(' '));
      });
      row(t, 'findings', span);
    }
    box.appendChild(t);
    var b = el('button', 'gd-expand', 'expand around ' + n[0]);
    b.type = 'button';
    b.dataset.p = p; b.dataset.s = s; b.dataset.i = i;
    box.appendChild(b);
  }
  function showDetails(p, s, i) {
    var box = document.getElementById('gd-details');
    box.textContent = '';
    box.appendChild(el('p', 'gd-muted', byPair[p].name));
    describe(box, p, s, i);
    var ps = partners(p, s, i);
    if (!ps.length) box.appendChild(el('p', 'gd-muted', 'No counterpart on the ' + SIDE_NAME[1 - s] + '.'));
    ps.slice(0, 8).forEach(function (q) { describe(box, p, 1 - s, q); });
  }
  function scrollToEl(e) {
    if (e && e.scrollIntoView) e.scrollIntoView({block: 'center', inline: 'center'});
  }
  function select(p, s, i) {
    clearMarks('gd-sel');
    var es = mark(p, s, i, 'gd-sel');
    partners(p, s, i).forEach(function (q) { mark(p, 1 - s, q, 'gd-sel'); });
    showDetails(p, s, i);
    if (!es.length) {
      expand(p, s, i);
      es = mark(p, s, i, 'gd-sel');
      partners(p, s, i).forEach(function (q) { mark(p, 1 - s, q, 'gd-sel'); });
    }
    scrollToEl(es[0]);
  }

  // The expanded view: a layered drawing of the nodes the user asked for.
  var expanded = {};
  var X_CAP = 400;
  function expand(p, s, i) {
    var st = expanded[p] || (expanded[p] = [{}, {}]);
    var add = [[], []];
    function put(k, j) {
      if (!st[k][j] && Object.keys(st[k]).length < X_CAP) { st[k][j] = 1; add[k].push(j); }
    }
    put(s, i);
    side(p, s).n[i][8].forEach(function (v) { put(s, opnd(v)); });
    usersOf(p, s)[i].forEach(function (u) { put(s, u); });
    add[s].slice().forEach(function (j) { partners(p, s, j).forEach(function (q) { put(1 - s, q); }); });
    drawExpanded(p);
  }
  function drawExpanded(p) {
    var box = document.getElementById('gx-' + p);
    box.hidden = false;
    [0, 1].forEach(function (s) {
      var host = box.querySelector('.gd-xside[data-side="' + SIDE[s] + '"]');
      host.innerHTML = layout(p, s, Object.keys(expanded[p][s]).map(Number).sort(function (a, b) { return a - b; }));
    });
  }
  function layout(p, s, ids, idOf) {
    idOf = idOf || xId;
    if (!ids.length) return '<p class="gd-muted">nothing on the ' + SIDE_NAME[s] + '</p>';
    var sd = side(p, s), inSet = {}, layer = {}, rows = [];
    ids.forEach(function (i) { inSet[i] = 1; });
    ids.forEach(function (i) {  // nodes are in topological order
      var l = 0;
      sd.n[i][8].forEach(function (v) { var o = opnd(v); if (inSet[o]) l = Math.max(l, layer[o] + 1); });
      layer[i] = l;
      (rows[l] = rows[l] || []).push(i);
    });
    var W = 150, H = 44, GX = 14, GY = 36, pos = {}, width = 0;
    rows.forEach(function (r, l) {
      if (!r) return;
      r.forEach(function (i) {
        var sum = 0, k = 0;
        sd.n[i][8].forEach(function (v) { var o = opnd(v); if (pos[o]) { sum += pos[o].x; k++; } });
        pos[i] = {bary: k ? sum / k : 1e9 + i};
      });
      r.sort(function (a, b) { return pos[a].bary - pos[b].bary || a - b; });
      r.forEach(function (i, k) { pos[i].x = GX + k * (W + GX); pos[i].y = GX + l * (H + GY); });
      width = Math.max(width, GX + r.length * (W + GX));
    });
    var height = GX + rows.length * (H + GY), out = [];
    out.push('<svg viewBox="0 0 ' + width + ' ' + height + '" xmlns="http://www.w3.org/2000/svg" font-family="Helvetica" font-size="10">');
    ids.forEach(function (i) {
      sd.n[i][8].forEach(function (v) {
        var o = opnd(v);
        if (!inSet[o]) return;
        out.push('<line x1="' + (pos[o].x + W / 2) + '" y1="' + (pos[o].y + H) + '" x2="' + (pos[i].x + W / 2) +
                 '" y2="' + pos[i].y + '" stroke="#757575"/>');
      });
    });
    var users = usersOf(p, s);
    ids.forEach(function (i) {
      var n = sd.n[i], q = pos[i];
      var open = n[8].some(function (v) { return !inSet[opnd(v)]; }) || users[i].some(function (u) { return !inSet[u]; });
      var stroke = n[7] === 2 ? ' stroke="#7b1fa2" stroke-width="3"' : ' stroke="#000"';
      out.push('<g class="gx" id="' + idOf(p, s, i) + '"><title>' + esc(n[0]) + '</title>' +
               '<rect x="' + q.x + '" y="' + q.y + '" width="' + W + '" height="' + H + '" rx="5" fill="' +
               FILL[s][n[6]] + '"' + stroke + (open ? ' stroke-dasharray="4 3"' : '') + '/>' +
               '<text x="' + (q.x + W / 2) + '" y="' + (q.y + 14) + '" text-anchor="middle">' + esc(n[1].replace(/^(aten|prim|xla)::/, '').slice(0, 26)) + '</text>' +
               '<text x="' + (q.x + W / 2) + '" y="' + (q.y + 26) + '" text-anchor="middle">' + esc(n[0].slice(0, 26)) + '</text>' +
               '<text x="' + (q.x + W / 2) + '" y="' + (q.y + 38) + '" text-anchor="middle">' + esc(n[4].slice(0, 26)) + '</text></g>');
    });
    out.push('</svg>');
    return out.join('');
  }

  function showFinding(fi, btn) {
    clearMarks('gd-hl');
    var f = D.findings[fi], shown = 0, first = null;
    f.ev.forEach(function (e) {
      var es = mark(e[0], e[1], e[2], 'gd-hl');
      if (es.length) { shown++; if (!first) first = es[0]; }
    });
    var note = btn && btn.parentNode.querySelector('.gd-shown');
    if (note) note.textContent = shown + ' of ' + f.ev.length + ' drawn, outlined in blue';
    scrollToEl(first);
    return shown;
  }
  function flash(e) {
    if (!e) return;
    e.classList.add('gd-flash');
    setTimeout(function () { e.classList.remove('gd-flash'); }, 1500);
  }

  var qres = document.getElementById('gd-qres');
  function search(q) {
    qres.textContent = '';
    q = q.trim().toLowerCase();
    var count = document.getElementById('gd-qcount');
    if (!q) { count.textContent = ''; return 0; }
    var hits = 0, MAX = 100;
    D.pairs.forEach(function (pd) {
      [0, 1].forEach(function (s) {
        var n = side(pd.pair, s).n;
        for (var i = 0; i < n.length; i++) {
          if (n[i][0].toLowerCase().indexOf(q) < 0 && n[i][1].toLowerCase().indexOf(q) < 0) continue;
          hits++;
          if (hits > MAX) continue;
          var drawn = document.getElementById(svgId(pd.pair, s, i)) ? ' (drawn)' : '';
          qres.appendChild(nodeLink(pd.pair, s, i, SIDE_NAME[s] + ' ' + pd.sides[s].source + ' ' + n[i][0] +
                                    ' ' + n[i][1] + ' [' + CHANGE[s][n[i][6]] + ']' + drawn));
        }
      });
    });
    count.textContent = hits + ' match' + (hits === 1 ? '' : 'es') + (hits > MAX ? ', first ' + MAX + ' listed' : '');
    return hits;
  }
  var timer = null;
  document.getElementById('gd-q').addEventListener('input', function (e) {
    clearTimeout(timer);
    var v = e.target.value;
    timer = setTimeout(function () { search(v); }, 120);
  });

  function nodeFromId(id) {
    var m = /^g[dx]-(\d+)-([LR])-(\d+)$/.exec(id || '');
    return m ? [Number(m[1]), m[2] === 'L' ? 0 : 1, Number(m[3])] : null;
  }
  document.addEventListener('click', function (e) {
    var t = e.target;
    var a = t.closest('a.gd-ev, a.gd-nl');
    if (a) { e.preventDefault(); select(+a.dataset.p, +a.dataset.s, +a.dataset.i); return; }
    var fl = t.closest('a.gd-flink');
    if (fl) {
      e.preventDefault();
      var li = document.getElementById('finding-' + fl.dataset.f);
      scrollToEl(li); flash(li); showFinding(+fl.dataset.f, li.querySelector('.gd-show'));
      return;
    }
    var b = t.closest('button');
    if (b && b.classList.contains('gd-show')) { showFinding(+b.dataset.f, b); return; }
    if (b && b.classList.contains('gd-expand')) { expand(+b.dataset.p, +b.dataset.s, +b.dataset.i); select(+b.dataset.p, +b.dataset.s, +b.dataset.i); return; }
    if (b && b.classList.contains('gd-draw')) {
      var dp = +b.dataset.p, ds = +b.dataset.s;
      b.parentNode.innerHTML = layout(dp, ds, byPair[dp].sides[ds].drawn, svgId);
      return;
    }
    if (b && b.classList.contains('gd-zoom')) { b.parentNode.nextElementSibling.classList.toggle('gd-big'); return; }
    if (b && b.classList.contains('gd-xclear')) {
      delete expanded[b.dataset.pair];
      var box = document.getElementById('gx-' + b.dataset.pair);
      box.hidden = true;
      Array.prototype.forEach.call(box.querySelectorAll('.gd-xside'), function (x) { x.textContent = ''; });
      return;
    }
    var g = t.closest('g.node, g.gx');
    if (g) { var id = nodeFromId(g.id); if (id) select(id[0], id[1], id[2]); }
  });

  function selftest() {
    var r = {};
    r.findings = document.querySelectorAll('li.gd-finding').length;
    r.evidenceLinks = document.querySelectorAll('a.gd-ev').length;
    r.drawnNodes = document.querySelectorAll('.gd-svg g.node').length;
    r.drawnBySide = {};
    Array.prototype.forEach.call(document.querySelectorAll('.gd-svg g.node'), function (g) {
      var id = nodeFromId(g.id);
      if (!id) return;
      var key = id[0] + SIDE[id[1]] + ':' + CHANGE[id[1]][side(id[0], id[1]).n[id[2]][6]].split(' ')[0];
      r.drawnBySide[key] = (r.drawnBySide[key] || 0) + 1;
      if (side(id[0], id[1]).n[id[2]][7] === 2) {
        var k2 = id[0] + SIDE[id[1]] + ':onlyOutput';
        r.drawnBySide[k2] = (r.drawnBySide[k2] || 0) + 1;
      }
    });
    r.evidenceResolved = 0;
    Array.prototype.forEach.call(document.querySelectorAll('a.gd-ev'), function (a) {
      if (document.getElementById(svgId(a.dataset.p, a.dataset.s, a.dataset.i))) r.evidenceResolved++;
    });
    r.findingIds = D.findings.map(function (f) { return f.id; });
    r.evidencePerFinding = D.findings.map(function (f) { return f.ev.length; });
    r.shownPerFinding = D.findings.map(function (f, fi) { return f.ev.length ? showFinding(fi, null) : 0; });
    var lit = document.querySelector('.gd-svg .gd-hl path, .gd-svg .gd-hl polygon');
    r.highlightStroke = lit ? getComputedStyle(lit).stroke : '';
    var ev = document.querySelector('a.gd-ev');
    if (ev) {
      ev.click();
      r.selected = document.querySelectorAll('.gd-sel').length;
      r.detailsChars = document.getElementById('gd-details').textContent.length;
      var back = document.querySelector('#gd-details a.gd-flink');
      r.backLinks = document.querySelectorAll('#gd-details a.gd-flink').length;
      if (back) back.click();
      var ex = document.querySelector('#gd-details button.gd-expand');
      if (ex) ex.click();
      r.expandedNodes = document.querySelectorAll('g.gx').length;
    }
    var zoom = document.querySelector('button.gd-zoom');
    if (zoom) {
      zoom.click();
      r.zoomed = document.querySelectorAll('.gd-svg.gd-big').length;
      zoom.click();
    }
    var clear = document.querySelector('.gd-expanded:not([hidden]) button.gd-xclear');
    if (clear) {
      clear.click();
      r.expandedAfterClear = document.querySelectorAll('g.gx').length;
    }
    var lazy = document.querySelector('button.gd-draw');
    if (lazy) {
      var host = lazy.parentNode;
      lazy.click();
      r.lazyDrawn = host.querySelectorAll('g.gx').length;
    }
    var q = document.getElementById('gd-q');
    q.value = 'expand';
    r.searchExpand = search(q.value);
    var first = document.querySelector('#gd-qres a');
    if (first) first.click();
    r.selectedAfterSearch = document.querySelectorAll('.gd-sel').length;
    r.errors = errors;
    document.getElementById('gd-selftest').textContent = JSON.stringify(r);
  }

  var loadMs = Math.round(performance.now());
  document.body.dataset.loadMs = String(loadMs);
  document.body.dataset.ready = '1';
  if (location.hash === '#selftest') selftest();
  document.body.dataset.errors = String(errors.length);
})();
)JS";

}  // namespace graphdiff::visual

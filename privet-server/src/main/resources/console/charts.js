// Privet console: hand-drawn SVG charts, each with a table fallback.
// Every label and value is inserted as text (textContent / createTextNode), never as HTML.

const SVG = 'http://www.w3.org/2000/svg';

/** Creates an HTML element; string children become text nodes. */
export function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'text') e.textContent = String(v);
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  append(e, children);
  return e;
}

function append(e, children) {
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

function svgEl(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== null && v !== undefined) e.setAttribute(k, String(v));
  }
  if (text !== undefined) e.textContent = String(text);
  return e;
}

/** A short, readable number (full precision stays in the table fallback's data-value). */
export function fmt(v) {
  if (v === null || v === undefined || Number.isNaN(v)) return '—';
  if (typeof v !== 'number') return String(v);
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e5 || a < 1e-3) return v.toExponential(3);
  return String(Number(v.toPrecision(5)));
}

/**
 * A budget (ε, δ or ρ) for people (issue 22): four significant digits, rounded up ('up': what is
 * spent, charged or would be) or down ('down': what remains, totals and grants), starting from the
 * number's shortest decimal, so that the text read back is never below a spend nor above what is
 * left. Plain decimals from 1e-4 to 1e6, else 2.5e-7. The same rule as
 * org.privet.accounting.BudgetFormat; ConsoleNumbersBrowserTest checks that both agree.
 */
export function budgetText(v, dir) {
  if (v === null || v === undefined || Number.isNaN(v)) return '—';
  if (typeof v !== 'number') return String(v);
  if (!Number.isFinite(v)) return v > 0 ? 'Infinity' : '-Infinity';
  if (v === 0) return '0';
  const [m, e] = Math.abs(v).toExponential().split('e');
  let exp = parseInt(e, 10);
  const all = m.replace('.', '');
  let kept = parseInt(all.slice(0, 4).padEnd(4, '0'), 10);
  const away = (dir === 'up') === (v > 0);
  if (away && /[1-9]/.test(all.slice(4))) kept += 1;
  if (kept === 10000) { kept = 1000; exp += 1; }
  const digits = String(kept).replace(/0+$/, '') || '0';
  let text;
  if (exp >= -4 && exp <= 5) {
    text = exp >= 0
      ? digits.slice(0, exp + 1).padEnd(exp + 1, '0') + (digits.length > exp + 1 ? '.' + digits.slice(exp + 1) : '')
      : '0.' + '0'.repeat(-exp - 1) + digits;
  } else {
    text = digits[0] + (digits.length > 1 ? '.' + digits.slice(1) : '') + 'e' + exp;
  }
  return (v < 0 ? '-' : '') + text;
}

/** A spend, charge or cost for people: rounded up (see budgetText). */
export function budgetUp(v) { return budgetText(v, 'up'); }

/** What remains, or a total: rounded down (see budgetText). */
export function budgetDown(v) { return budgetText(v, 'down'); }

function niceTicks(lo, hi, count) {
  if (!(hi > lo)) { hi = lo + 1; }
  const span = hi - lo;
  const step0 = Math.pow(10, Math.floor(Math.log10(span / count)));
  const err = span / count / step0;
  const step = step0 * (err >= 7.5 ? 10 : err >= 3.5 ? 5 : err >= 1.5 ? 2 : 1);
  const ticks = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) ticks.push(Number(t.toPrecision(12)));
  return ticks;
}

function logTicks(lo, hi) {
  const ticks = [];
  for (let p = Math.floor(Math.log10(lo)); p <= Math.ceil(Math.log10(hi)); p++) {
    const t = Math.pow(10, p);
    if (t >= lo * 0.999 && t <= hi * 1.001) ticks.push(t);
  }
  return ticks.length >= 2 ? ticks : [lo, hi];
}

const COLOURS = ['#1f5fa8', '#c2410c', '#15803d', '#7e22ce', '#b91c1c', '#0e7490', '#a16207'];

/** A figure: title, SVG, legend and a table fallback (a details element with the numbers). */
function figure(opts, svg, legend, table) {
  const fig = el('figure', { class: 'chart', 'data-chart': opts.id || null });
  if (opts.title) fig.appendChild(el('figcaption', { text: opts.title }));
  fig.appendChild(svg);
  if (legend) fig.appendChild(legend);
  const details = el('details', { class: 'table-fallback' }, el('summary', { text: 'Show the numbers as a table' }));
  details.appendChild(el('div', { class: 'table-wrap' }, table));
  fig.appendChild(details);
  return fig;
}

export function table(headers, rows, attrs) {
  const t = el('table', attrs || {});
  t.appendChild(el('thead', {}, el('tr', {}, headers.map((h) => el('th', { scope: 'col', text: h })))));
  const body = el('tbody');
  for (const r of rows) {
    body.appendChild(el('tr', {}, r.map((c) => {
      if (c instanceof Node) return el('td', {}, c);
      if (typeof c === 'number') return el('td', { 'data-value': String(c), class: 'num', text: fmt(c) });
      return el('td', { text: c === null || c === undefined ? '—' : String(c) });
    })));
  }
  t.appendChild(body);
  return t;
}

function frame(width, height, label) {
  return svgEl('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label || 'chart',
    preserveAspectRatio: 'xMidYMid meet', class: 'chart-svg' });
}

function legendOf(names) {
  const ul = el('ul', { class: 'legend' });
  names.forEach((n, i) => {
    const sw = el('span', { class: `swatch c${i % COLOURS.length}`, 'aria-hidden': 'true' });
    ul.appendChild(el('li', {}, sw, n));
  });
  return ul;
}

/**
 * Line chart. opts: {title, xLabel, yLabel, xLog, x: [...], series: [{name, y: [...], lower?, upper?, dashed?}],
 * hlines: [{y, label}], bands: [{y0, y1, label}], shade: [{x0, x1, label}], step?}
 */
export function lineChart(opts) {
  const W = 640, H = 320, L = 64, R = 16, T = 14, B = 46;
  const xs = opts.x;
  const all = [];
  for (const s of opts.series) {
    for (const arr of [s.y, s.lower, s.upper]) if (arr) arr.forEach((v) => { if (v !== null && Number.isFinite(v)) all.push(v); });
  }
  for (const h of opts.hlines || []) all.push(h.y);
  for (const b of opts.bands || []) { all.push(b.y0, b.y1); }
  let ylo = opts.yMin !== undefined ? opts.yMin : Math.min(...all);
  let yhi = opts.yMax !== undefined ? opts.yMax : Math.max(...all);
  if (!(yhi > ylo)) { yhi = ylo + 1; }
  const pad = (yhi - ylo) * 0.05;
  if (opts.yMin === undefined) ylo -= pad;
  if (opts.yMax === undefined) yhi += pad;
  const xlo = Math.min(...xs), xhi = Math.max(...xs) > xlo ? Math.max(...xs) : xlo + 1;
  const sx = opts.xLog
    ? (x) => L + (Math.log(x) - Math.log(xlo)) / (Math.log(xhi) - Math.log(xlo) || 1) * (W - L - R)
    : (x) => L + (x - xlo) / (xhi - xlo) * (W - L - R);
  const sy = (y) => T + (1 - (y - ylo) / (yhi - ylo)) * (H - T - B);
  const svg = frame(W, H, opts.title);
  const grid = svgEl('g', { class: 'grid' });
  for (const t of niceTicks(ylo, yhi, 5)) {
    grid.appendChild(svgEl('line', { x1: L, x2: W - R, y1: sy(t), y2: sy(t) }));
    grid.appendChild(svgEl('text', { x: L - 6, y: sy(t) + 4, 'text-anchor': 'end', class: 'tick' }, fmt(t)));
  }
  for (const t of opts.xLog ? logTicks(xlo, xhi) : niceTicks(xlo, xhi, 6).filter((t) => !opts.xInteger || Number.isInteger(t))) {
    grid.appendChild(svgEl('text', { x: sx(t), y: H - B + 16, 'text-anchor': 'middle', class: 'tick' }, fmt(t)));
    grid.appendChild(svgEl('line', { x1: sx(t), x2: sx(t), y1: H - B, y2: H - B + 4 }));
  }
  svg.appendChild(grid);
  for (const s of opts.shade || []) {
    const x0 = Math.max(L, sx(s.x0)), x1 = Math.min(W - R, sx(s.x1));
    if (x1 > x0) svg.appendChild(svgEl('rect', { x: x0, y: T, width: x1 - x0, height: H - T - B, class: 'shade' }));
  }
  for (const b of opts.bands || []) {
    const y0 = sy(Math.min(yhi, Math.max(ylo, b.y1))), y1 = sy(Math.max(ylo, Math.min(yhi, b.y0)));
    svg.appendChild(svgEl('rect', { x: L, y: y0, width: W - L - R, height: Math.max(0, y1 - y0), class: 'band' }));
  }
  svg.appendChild(svgEl('line', { x1: L, x2: W - R, y1: H - B, y2: H - B, class: 'axis' }));
  svg.appendChild(svgEl('line', { x1: L, x2: L, y1: T, y2: H - B, class: 'axis' }));
  for (const h of opts.hlines || []) {
    svg.appendChild(svgEl('line', { x1: L, x2: W - R, y1: sy(h.y), y2: sy(h.y), class: 'hline' }));
  }
  opts.series.forEach((s, i) => {
    const c = i % COLOURS.length;
    if (s.lower && s.upper) {
      const g = svgEl('g', { class: `errbars c${c}` });
      xs.forEach((x, j) => {
        if (s.lower[j] === null || s.upper[j] === null) return;
        g.appendChild(svgEl('line', { x1: sx(x), x2: sx(x), y1: sy(s.lower[j]), y2: sy(s.upper[j]) }));
        g.appendChild(svgEl('line', { x1: sx(x) - 4, x2: sx(x) + 4, y1: sy(s.lower[j]), y2: sy(s.lower[j]) }));
        g.appendChild(svgEl('line', { x1: sx(x) - 4, x2: sx(x) + 4, y1: sy(s.upper[j]), y2: sy(s.upper[j]) }));
      });
      svg.appendChild(g);
    }
    let d = '';
    let pen = false;
    xs.forEach((x, j) => {
      const y = s.y[j];
      if (y === null || y === undefined || !Number.isFinite(y)) { pen = false; return; }
      if (opts.step && pen) d += ` H${sx(x).toFixed(1)}`;
      d += `${pen ? ' L' : ' M'}${sx(x).toFixed(1)},${sy(y).toFixed(1)}`;
      pen = true;
    });
    svg.appendChild(svgEl('path', { d: d.trim() || 'M0,0', class: `series c${c}${s.dashed ? ' dashed' : ''}`, 'data-series': s.name }));
    if (s.points) {
      const g = svgEl('g', { class: `points c${c}` });
      xs.forEach((x, j) => { if (Number.isFinite(s.y[j])) g.appendChild(svgEl('circle', { cx: sx(x), cy: sy(s.y[j]), r: 3 })); });
      svg.appendChild(g);
    }
  });
  if (opts.xLabel) svg.appendChild(svgEl('text', { x: (L + W - R) / 2, y: H - 8, 'text-anchor': 'middle', class: 'label' }, opts.xLabel));
  if (opts.yLabel) svg.appendChild(svgEl('text', { x: 14, y: (T + H - B) / 2, transform: `rotate(-90 14 ${(T + H - B) / 2})`, 'text-anchor': 'middle', class: 'label' }, opts.yLabel));
  const headers = [opts.xLabel || 'x'];
  for (const s of opts.series) {
    headers.push(s.name);
    if (s.lower && s.upper) headers.push(`${s.name} lower`, `${s.name} upper`);
  }
  const rows = xs.map((x, j) => {
    const r = [x];
    for (const s of opts.series) {
      r.push(s.y[j]);
      if (s.lower && s.upper) r.push(s.lower[j], s.upper[j]);
    }
    return r;
  });
  const names = opts.series.map((s) => s.name);
  return figure(opts, svg, names.length > 1 || opts.legend ? legendOf(names) : null, table(headers, rows, { 'data-table': opts.id || '' }));
}

/**
 * Horizontal error-bar chart: one row per released value, a dot at the value and a bar over its
 * confidence interval. opts: {title, labels, values, lowers, uppers, level}
 */
export function errorBarChart(opts) {
  const n = opts.labels.length;
  const rowH = 28, L = 150, R = 20, T = 10, B = 36, W = 640;
  const H = T + B + n * rowH;
  const finite = [];
  for (const a of [opts.values, opts.lowers, opts.uppers]) a.forEach((v) => { if (v !== null && Number.isFinite(v)) finite.push(v); });
  let lo = Math.min(...finite), hi = Math.max(...finite);
  if (opts.zero) { lo = Math.min(lo, 0); hi = Math.max(hi, 0); }
  if (!(hi > lo)) { lo -= 0.5; hi += 0.5; }
  const pad = (hi - lo) * 0.08;
  lo -= pad; hi += pad;
  const sx = (x) => L + (x - lo) / (hi - lo) * (W - L - R);
  const svg = frame(W, H, opts.title);
  for (const t of niceTicks(lo, hi, 5)) {
    svg.appendChild(svgEl('line', { x1: sx(t), x2: sx(t), y1: T, y2: H - B, class: 'gridline' }));
    svg.appendChild(svgEl('text', { x: sx(t), y: H - B + 16, 'text-anchor': 'middle', class: 'tick' }, fmt(t)));
  }
  opts.labels.forEach((label, i) => {
    const y = T + i * rowH + rowH / 2;
    const text = String(label);
    svg.appendChild(svgEl('text', { x: L - 8, y: y + 4, 'text-anchor': 'end', class: 'tick' }, text.length > 22 ? text.slice(0, 21) + '…' : text));
    const g = svgEl('g', { class: 'errbar', 'data-index': i });
    if (opts.lowers[i] !== null && opts.uppers[i] !== null) {
      g.appendChild(svgEl('line', { x1: sx(opts.lowers[i]), x2: sx(opts.uppers[i]), y1: y, y2: y, class: 'ci' }));
      g.appendChild(svgEl('line', { x1: sx(opts.lowers[i]), x2: sx(opts.lowers[i]), y1: y - 6, y2: y + 6, class: 'ci' }));
      g.appendChild(svgEl('line', { x1: sx(opts.uppers[i]), x2: sx(opts.uppers[i]), y1: y - 6, y2: y + 6, class: 'ci' }));
    }
    g.appendChild(svgEl('circle', { cx: sx(opts.values[i]), cy: y, r: 4, class: 'dot' }));
    svg.appendChild(g);
  });
  if (opts.xLabel) svg.appendChild(svgEl('text', { x: (L + W - R) / 2, y: H - 6, 'text-anchor': 'middle', class: 'label' }, opts.xLabel));
  const rows = opts.labels.map((l, i) => [String(l), opts.values[i], opts.lowers[i], opts.uppers[i]]);
  return figure(opts, svg, null, table(['value of', 'estimate', 'lower', 'upper'], rows, { 'data-table': opts.id || '' }));
}

/** Grouped vertical bars. opts: {title, labels, series: [{name, values}], yLabel, yMax} */
export function barChart(opts) {
  const n = opts.labels.length, m = opts.series.length;
  const W = 640, H = 300, L = 56, R = 12, T = 12, B = 60;
  const vals = opts.series.flatMap((s) => s.values.filter((v) => v !== null && Number.isFinite(v)));
  const hi = opts.yMax !== undefined ? opts.yMax : Math.max(...vals, 0) * 1.08 || 1;
  const sy = (y) => T + (1 - y / hi) * (H - T - B);
  const slot = (W - L - R) / Math.max(1, n);
  const bw = Math.max(2, slot * 0.8 / m);
  const svg = frame(W, H, opts.title);
  for (const t of niceTicks(0, hi, 5)) {
    svg.appendChild(svgEl('line', { x1: L, x2: W - R, y1: sy(t), y2: sy(t), class: 'gridline' }));
    svg.appendChild(svgEl('text', { x: L - 6, y: sy(t) + 4, 'text-anchor': 'end', class: 'tick' }, fmt(t)));
  }
  opts.labels.forEach((label, i) => {
    const x0 = L + i * slot + slot * 0.1;
    opts.series.forEach((s, j) => {
      const v = s.values[i];
      if (v === null || !Number.isFinite(v)) return;
      svg.appendChild(svgEl('rect', { x: x0 + j * bw, y: sy(v), width: bw - 1, height: Math.max(0, sy(0) - sy(v)), class: `bar c${j % COLOURS.length}` }));
    });
    const text = String(label);
    if (n <= 24) {
      svg.appendChild(svgEl('text', { x: L + i * slot + slot / 2, y: H - B + 14, 'text-anchor': 'middle', class: 'tick' }, text.length > 10 ? text.slice(0, 9) + '…' : text));
    }
  });
  svg.appendChild(svgEl('line', { x1: L, x2: W - R, y1: sy(0), y2: sy(0), class: 'axis' }));
  if (opts.yLabel) svg.appendChild(svgEl('text', { x: 14, y: (T + H - B) / 2, transform: `rotate(-90 14 ${(T + H - B) / 2})`, 'text-anchor': 'middle', class: 'label' }, opts.yLabel));
  if (opts.xLabel) svg.appendChild(svgEl('text', { x: (L + W - R) / 2, y: H - 10, 'text-anchor': 'middle', class: 'label' }, opts.xLabel));
  const rows = opts.labels.map((l, i) => [String(l), ...opts.series.map((s) => s.values[i])]);
  return figure(opts, svg, m > 1 ? legendOf(opts.series.map((s) => s.name)) : null,
    table([opts.xLabel || 'candidate', ...opts.series.map((s) => s.name)], rows, { 'data-table': opts.id || '' }));
}

/** A budget gauge: spent and remaining of a total, as an SVG bar plus text. */
export function gauge(label, spent, total, unit) {
  const frac = total > 0 ? Math.min(1, Math.max(0, spent / total)) : 0;
  const remaining = Math.max(0, total - spent);
  const W = 300, H = 18;
  const svg = svgEl('svg', { viewBox: `0 0 ${W} ${H}`, class: 'gauge-bar', role: 'img', preserveAspectRatio: 'none',
    'aria-label': `${label}: spent ${budgetUp(spent)} of ${budgetDown(total)} ${unit}` });
  svg.appendChild(svgEl('rect', { x: 0, y: 0, width: W, height: H, rx: 4, class: 'gauge-bg' }));
  svg.appendChild(svgEl('rect', { x: 0, y: 0, width: (W * frac).toFixed(2), height: H, rx: 4, class: frac > 0.9 ? 'gauge-fill low' : 'gauge-fill' }));
  return el('div', { class: 'gauge', 'data-spent': String(spent), 'data-total': String(total), 'data-remaining': String(remaining) },
    el('div', { class: 'gauge-label', text: label }),
    svg,
    el('div', { class: 'gauge-text' },
      el('span', { class: 'spent', text: `spent ${budgetUp(spent)} ${unit}` }), ' · ',
      el('span', { class: 'remaining', text: `remaining ${budgetDown(remaining)} of ${budgetDown(total)} ${unit}` })));
}

// Privet console pages. Every value from the server is inserted as text, never as HTML:
// dataset names, column names, SQL text and messages are attacker-controlled.
import { el, fmt, budgetText, table, lineChart, errorBarChart, barChart, gauge } from './charts.js';
import { api, session, go, errorBox } from './app.js';

// ---- helpers

/** The headline number of a privacy loss: ε, else ρ. */
export function lossValue(loss) {
  if (!loss) return 0;
  return loss.epsilon !== undefined ? loss.epsilon : (loss.rho !== undefined ? loss.rho : 0);
}

export function lossUnit(loss) {
  return loss && loss.epsilon === undefined && loss.rho !== undefined ? 'ρ' : 'ε';
}

/**
 * A privacy loss for people, each parameter rounded up ('up', the default: spends and costs) or
 * down ('down': what remains) to four significant digits (budgetText).
 */
export function lossText(loss, dir = 'up') {
  if (!loss) return '—';
  const f = (v) => budgetText(v, dir);
  if (loss.measure === 'pure') return `ε = ${f(loss.epsilon)}`;
  if (loss.measure === 'approx') return `(ε = ${f(loss.epsilon)}, δ = ${f(loss.delta)})`;
  if (loss.measure === 'zcdp') return `ρ = ${f(loss.rho)}`;
  if (loss.measure === 'approx-zcdp') return `(ρ = ${f(loss.rho)}, δ = ${f(loss.delta)})`;
  return JSON.stringify(loss);
}

/** An ISO instant as "YYYY-MM-DD HH:MM:SS UTC" (the full value stays in the title). */
function time(iso) {
  if (!iso) return '—';
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(iso);
  return el('time', { datetime: iso, title: iso, text: m ? `${m[1]} ${m[2]}` : iso });
}

function page(title, ...children) {
  return el('section', { class: 'page' }, el('h2', { text: title }), ...children);
}

function field(label, control, hint) {
  const id = control.id || `f-${Math.random().toString(36).slice(2)}`;
  control.id = id;
  return el('div', { class: 'field' }, el('label', { for: id, text: label }), control,
    hint ? el('div', { class: 'hint', text: hint }) : null);
}

async function datasets() {
  const r = await api('GET', '/v1/datasets');
  return r.ok ? r.data.filter((d) => !d.nameClash) : []; // a name clash is refused until renamed
}

function datasetSelect(list, selected, id) {
  const s = el('select', { id });
  for (const d of list) s.appendChild(el('option', { value: d.name, selected: d.name === selected, text: d.name }));
  return s;
}

function datasetGauge(label, budget) {
  return gauge(label, lossValue(budget.spent), lossValue(budget.total), lossUnit(budget.total));
}

// ---- sign in

export async function signInPage(state) {
  const input = el('input', { type: 'password', id: 'apikey', name: 'apikey', autocomplete: 'off', required: true, spellcheck: 'false' });
  const out = el('div', { id: 'signin-result', 'aria-live': 'polite' });
  if (state.message) out.appendChild(errorBox({ code: 'unauthorized', message: state.message }));
  if (state.info) out.appendChild(el('p', { class: 'info', text: state.info }));
  const form = el('form', { id: 'signin-form', class: 'card narrow' },
    field('API key', input, 'The key the curator gave you (privet analyst add). It is kept in this tab only.'),
    el('button', { type: 'submit', id: 'signin', class: 'primary', text: 'Sign in' }), out);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const key = input.value.trim();
    out.replaceChildren(el('p', { text: 'Checking…' }));
    const r = await api('GET', '/v1/datasets', undefined, { key });
    if (!r.ok) {
      out.replaceChildren(errorBox(r.error));
      return;
    }
    const probe = await api('GET', '/v1/analysts', undefined, { key });
    session.set(key, probe.ok ? 'curator' : 'analyst');
    input.value = '';
    go('datasets');
  });
  return page('Sign in', form,
    el('p', {}, 'No key? The ', el('a', { href: '#/playground', text: 'playground' }), ' needs none.'));
}

// ---- datasets

export async function datasetsPage() {
  const r = await api('GET', '/v1/datasets');
  if (!r.ok) return page('Datasets', errorBox(r.error));
  r.data = r.data.filter((d) => !d.nameClash); // listed for the CLI and the API; refused until renamed
  if (r.data.length === 0) {
    return page('Datasets', el('p', { text: 'No datasets yet: ask the curator for a grant.' }));
  }
  const list = el('div', { class: 'cards', id: 'dataset-list' });
  for (const d of r.data) {
    const card = el('article', { class: 'card dataset', 'data-dataset': d.name });
    card.appendChild(el('h3', { class: 'dataset-name', text: d.name }));
    card.appendChild(el('p', { class: 'unit', text: d.privacyUnit === 'row' ? 'Privacy unit: each row' : `Privacy unit: all rows with the same ${d.privacyUnit}` }));
    card.appendChild(datasetGauge(session.role === 'curator' ? 'Dataset budget' : 'Your share', d.budget));
    card.appendChild(el('h4', { text: 'Schema' }));
    card.appendChild(el('div', { class: 'table-wrap' }, table(['column', 'type', 'public bounds', 'public keys'], d.columns.map((c) => {
      const b = d.publicBounds && d.publicBounds[c.name];
      const k = d.publicKeys && d.publicKeys[c.name];
      return [c.name, c.type, b ? `[${fmt(b.lower)}, ${fmt(b.upper)}]` : '—', k ? k.join(', ') : '—'];
    }), { class: 'schema' })));
    card.appendChild(el('div', { class: 'actions' },
      el('button', { type: 'button', text: 'Query', onclick: () => go('query', { dataset: d }) }),
      el('button', { type: 'button', text: 'Budget over time', onclick: () => go('budget', { dataset: d.name }) }),
      el('button', { type: 'button', text: 'History', onclick: () => go('history', { dataset: d.name }) })));
    list.appendChild(card);
  }
  return page('Datasets', list);
}

// ---- query

/**
 * Queries on the bundled Adult data (privet serve --demo): together they cost ε = 0.75, within the
 * demo analyst's share of ε = 1, so a new user can run all three and watch the budget drop.
 */
const ADULT_EXAMPLES = [
  ['People by sex', 'SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 0.25, group_selection_strategy = PUBLIC_GROUPS)\n  sex, COUNT(*) AS people\nFROM adult GROUP BY sex'],
  ['Mean hours per week by sex', 'SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 0.25, group_selection_strategy = PUBLIC_GROUPS)\n  sex, AVG(hours_per_week, contribution_bounds_per_group => (0, 100)) AS mean_hours\nFROM adult GROUP BY sex'],
  ['Median age over 25', 'SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 0.25)\n  PERCENTILE_CONT(age, 0.5, contribution_bounds_per_row => (0, 100)) AS median_age\nFROM adult WHERE age > 25'],
];

function isEstimate(v) {
  return v !== null && typeof v === 'object' && 'value' in v;
}

function resultView(res) {
  const cols = res.columns;
  const wrap = el('div', { id: 'result' });
  const rows = res.rows.map((row) => cols.map((c) => {
    const v = row[c];
    if (isEstimate(v)) {
      return el('span', { class: 'estimate', 'data-value': String(v.value), 'data-lower': String(v.lower), 'data-upper': String(v.upper) },
        fmt(v.value), v.lower !== null ? el('span', { class: 'ci', text: ` [${fmt(v.lower)}, ${fmt(v.upper)}]` }) : null);
    }
    return v === null ? '—' : String(v);
  }));
  wrap.appendChild(el('h3', { text: 'Result' }));
  wrap.appendChild(el('div', { class: 'table-wrap' }, table(cols, rows, { id: 'result-table' })));
  const keyCols = cols.filter((c) => !res.rows.some((row) => isEstimate(row[c])));
  for (const c of cols.filter((c) => res.rows.some((row) => isEstimate(row[c])))) {
    const rs = res.rows.filter((row) => isEstimate(row[c]));
    const level = rs[0][c].level;
    wrap.appendChild(errorBarChart({
      id: `ci-${c}`,
      title: `${c}: each released value with its ${level ? Math.round(level * 100) + '%' : ''} confidence interval`,
      labels: rs.map((row, i) => keyCols.length ? keyCols.map((k) => String(row[k])).join(' · ') : `row ${i + 1}`),
      values: rs.map((row) => row[c].value),
      lowers: rs.map((row) => row[c].lower),
      uppers: rs.map((row) => row[c].upper),
      xLabel: c,
    }));
  }
  const ch = res.charge;
  wrap.appendChild(el('p', { class: 'charge', id: 'charge', 'data-charge-id': String(ch.id) },
    `Charged ${ch.cost.map((l) => lossText(l)).join(' + ')} to ${ch.dataset} (ledger charge #${ch.id}, committed before the release)`,
    res.replay ? ' — a replay of the stored answer: nothing new was charged.' : '.'));
  return wrap;
}

function explainView(data) {
  const c = data.cost;
  const wrap = el('div', { id: 'explain' });
  wrap.appendChild(el('h3', { text: 'Plan (nothing charged)' }));
  wrap.appendChild(el('p', { class: 'cost', id: 'explain-cost' },
    `This query would cost ${lossText(c.total)}; remaining: ${lossText(c.remaining, 'down')}.`));
  wrap.appendChild(el('div', { class: 'table-wrap' }, table(['output', 'purpose', 'mechanism', 'cost', 'noise std. dev.', 'expected error (95%)'],
    c.mechanisms.map((m) => [m.output, m.purpose, m.mechanism, lossText(m.loss), m.noiseStddev, m.error95]), { id: 'explain-table' })));
  if (data.solved) wrap.appendChild(solvedView(data.solved));
  if (data.split) wrap.appendChild(splitView(data.split));
  wrap.appendChild(el('details', {}, el('summary', { text: 'Plan text' }), el('pre', { class: 'plan', text: data.plan })));
  return wrap;
}

/** A query given by target errors (max_error): the solved cost against the remaining budget. */
function solvedView(sv) {
  const sym = sv.measure === 'rho' ? 'ρ' : 'ε';
  const fits = sv.fits === undefined ? '' : sv.fits ? ' — it fits.' : ' — it does not fit: running it would be refused.';
  return el('section', { id: 'explain-solved', 'data-fits': String(sv.fits) },
    el('h4', { text: 'Solved from the target errors' }),
    el('p', { class: 'solved-cost', id: 'solved-cost', 'data-value': String(sv.value), 'data-remaining': String(sv.remaining) },
      `Smallest ${sym} meeting every target at ${Math.round(sv.confidence * 1000) / 10}% confidence: ${sym} = ${budgetText(sv.value, 'up')} `
      + `(charge ${lossText(sv.cost)}); remaining ${sym} = ${sv.remaining === null ? '—' : budgetText(sv.remaining, 'down')}${fits}`),
    el('div', { class: 'table-wrap' }, table(['output', 'target error', 'expected error'],
      sv.outputs.map((o) => [o.output, o.target, o.expectedError]), { id: 'solved-table' })));
}

/** How the budget is split across selection and the outputs, and why (issue 17). */
function splitView(sp) {
  const why = sp.rule === 'default' ? 'default split: minimises the sum of squared relative errors (public bounds only)'
    : sp.rule === 'equal' ? 'default split kept equal (the optimised one would coarsen the fixed-point grid)'
      : sp.rule === 'solved' ? 'solved for the target errors: each noisy release gets the share its tightest output needs'
        : 'explicit budget weights';
  return el('section', { id: 'explain-split' },
    el('h4', { text: 'Budget split' }),
    el('p', { class: 'split-rule', text: `${why}${sp.selectionShare > 0 ? `; partition selection ${fmt(100 * sp.selectionShare)}%` : ''}.` }),
    el('div', { class: 'table-wrap' }, table(['output', 'budget share', 'relative s.d. × N', 'equal split: relative s.d. × N'],
      sp.outputs.map((o) => [o.output, o.share, o.relativeStddev, o.equalSplitRelativeStddev]), { id: 'split-table' })));
}

/** The SQL with the refused position marked: the line highlighted and a caret under the column. */
function refusalView(sql, error) {
  const lines = sql.split('\n');
  const pre = el('pre', { class: 'sql-marked', id: 'refusal-sql' });
  lines.forEach((line, i) => {
    const n = i + 1;
    const isBad = n === error.line;
    pre.appendChild(el('span', { class: isBad ? 'line bad' : 'line', 'data-line': String(n) }, line || ' '));
    pre.appendChild(document.createTextNode('\n'));
    if (isBad && error.column) {
      pre.appendChild(el('span', { class: 'caret', 'aria-hidden': 'true', text: ' '.repeat(Math.max(0, error.column - 1)) + '^' }));
      pre.appendChild(document.createTextNode('\n'));
    }
  });
  const where = error.line ? `line ${error.line}, column ${error.column}` : null;
  return el('div', { id: 'refusal', class: 'refusal', role: 'alert' },
    el('p', {}, el('strong', { text: 'Refused' }), where ? el('span', { class: 'position', text: ` at ${where}` }) : null, ': ',
      el('span', { class: 'message', text: error.message })),
    el('p', { class: 'nothing-charged', text: 'Nothing was charged.' }),
    error.line ? pre : null);
}

function offsetOf(text, line, column) {
  const lines = text.split('\n');
  let off = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) off += lines[i].length + 1;
  return Math.min(text.length, off + Math.max(0, column - 1));
}

export async function queryPage(state) {
  const list = await datasets();
  const initial = state.dataset || list[0];
  const editor = el('textarea', { id: 'sql', rows: 7, spellcheck: 'false', autocapitalize: 'off', class: 'sql' });
  if (state.sql) editor.value = state.sql;
  else if (initial) editor.value = `SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 0.5)\n  COUNT(*) AS people\nFROM ${initial.name}`;
  const output = el('div', { id: 'query-output', 'aria-live': 'polite' });
  const budgetBox = el('div', { id: 'query-budget' });
  const examples = el('div', { class: 'examples' });
  if (list.some((d) => d.name === 'adult')) {
    examples.appendChild(el('span', { text: 'Examples: ' }));
    ADULT_EXAMPLES.forEach(([label, sql], i) => examples.appendChild(el('button', { type: 'button', class: 'small', id: `example-${i}`, text: label,
      onclick: () => { editor.value = sql; editor.focus(); } })));
  }
  async function showBudget(name) {
    const r = await api('GET', `/v1/budget?dataset=${encodeURIComponent(name)}`);
    budgetBox.replaceChildren(r.ok ? datasetGauge(`Budget of ${name}`, r.data) : errorBox(r.error));
  }
  if (initial) await showBudget(initial.name);
  async function explain() {
    output.replaceChildren(el('p', { text: 'Planning…' }));
    const r = await api('POST', '/v1/explain', { sql: editor.value });
    output.replaceChildren(r.ok ? explainView(r.data) : failure(r));
  }
  async function run() {
    output.replaceChildren(el('p', { text: 'Running…' }));
    const r = await api('POST', '/v1/query', { sql: editor.value }, { idempotencyKey: crypto.randomUUID() });
    if (r.ok) {
      output.replaceChildren(resultView(r.data));
      await showBudget(r.data.charge.dataset);
    } else {
      output.replaceChildren(failure(r));
    }
  }
  function failure(r) {
    if (r.error.code === 'refused') {
      if (r.error.line) {
        const off = offsetOf(editor.value, r.error.line, r.error.column || 1);
        editor.focus();
        editor.setSelectionRange(off, Math.min(editor.value.length, off + 1));
      }
      return refusalView(editor.value, r.error);
    }
    if (r.error.code === 'budget_exceeded') {
      return errorBox(r.error, el('p', { class: 'nothing-charged', text: 'Nothing was charged.' }));
    }
    return errorBox(r.error);
  }
  const form = el('form', { id: 'query-form', class: 'card' },
    field('DP SQL', editor, 'Explain shows the plan and the cost before anything is spent; Run releases and charges.'),
    examples,
    el('div', { class: 'actions' },
      el('button', { type: 'button', id: 'explain-button', text: 'Explain', onclick: explain }),
      el('button', { type: 'submit', id: 'run-button', class: 'primary', text: 'Run' })));
  form.addEventListener('submit', (ev) => { ev.preventDefault(); run(); });
  editor.addEventListener('keydown', (ev) => { if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); run(); } });
  return page('Query', budgetBox, form, output);
}

// ---- budget over time

/** Burn-down points from a history: [x = charge number, remaining]. */
function burnDown(total, charges, spentOf) {
  const x = [0], remaining = [total];
  charges.forEach((c, i) => { x.push(i + 1); remaining.push(total - lossValue(spentOf(c))); });
  return { x, remaining };
}

export async function budgetPage(state) {
  const list = await datasets();
  if (list.length === 0) return page('Budget over time', el('p', { text: 'No datasets yet.' }));
  const name = state.dataset || list[0].name;
  const select = datasetSelect(list, name, 'budget-dataset');
  select.addEventListener('change', () => go('budget', { dataset: select.value }));
  const [b, h] = await Promise.all([
    api('GET', `/v1/budget?dataset=${encodeURIComponent(name)}`),
    api('GET', `/v1/history?dataset=${encodeURIComponent(name)}`)]);
  if (!b.ok) return page('Budget over time', field('Dataset', select), errorBox(b.error));
  if (!h.ok) return page('Budget over time', field('Dataset', select), errorBox(h.error));
  const total = lossValue(b.data.total);
  const unit = lossUnit(b.data.total);
  const curator = session.role === 'curator';
  const charges = h.data;
  const own = burnDown(total, charges, (c) => (curator ? c.spent : c.analystSpent));
  const series = [{ name: curator ? 'dataset remaining' : 'your remaining share', y: own.remaining, points: true }];
  if (curator) {
    const analysts = [...new Set(charges.map((c) => c.analyst))];
    for (const a of analysts) {
      let last = 0;
      const y = [0];
      for (const c of charges) { if (c.analyst === a) last = lossValue(c.analystSpent); y.push(last); }
      series.push({ name: `spent by ${a}`, y, dashed: true });
    }
  }
  const chart = lineChart({ id: 'burndown', title: `Budget of ${name} after each charge (${unit})`, x: own.x, series, xInteger: true,
    xLabel: 'charge', yLabel: unit, yMin: 0, step: true, legend: true });
  return page('Budget over time', field('Dataset', select), datasetGauge(curator ? 'Dataset budget' : 'Your share', b.data),
    el('p', { text: `${b.data.charges} charge(s), ${b.data.accountant} composition.` }), chart);
}

// ---- history

export async function historyPage(state) {
  const list = await datasets();
  if (list.length === 0) return page('History', el('p', { text: 'No datasets yet.' }));
  const name = state.dataset || list[0].name;
  const select = datasetSelect(list, name, 'history-dataset');
  select.addEventListener('change', () => go('history', { dataset: select.value }));
  const h = await api('GET', `/v1/history?dataset=${encodeURIComponent(name)}`);
  if (!h.ok) return page('History', field('Dataset', select), errorBox(h.error));
  const note = session.role === 'curator' ? 'All analysts\' charges (curator view).' : 'Your own charges.';
  const rows = h.data.map((c) => [String(c.id), time(c.time), c.analyst, el('pre', { class: 'sql-inline', text: c.query }),
    c.cost.map((l) => lossText(l)).join(' + '), lossText(session.role === 'curator' ? c.spent : c.analystSpent)]);
  return page('History', field('Dataset', select), el('p', { text: note }),
    h.data.length ? el('div', { class: 'table-wrap' }, table(['#', 'time', 'analyst', 'query', 'cost', 'spent after'], rows, { id: 'history-table' }))
      : el('p', { id: 'history-empty', text: 'No charges yet.' }));
}

// ---- synthetic data

function parseCsv(text) {
  const rows = [];
  let row = [], cell = '', quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') { cell += '"'; i++; } else if (ch === '"') quoted = false; else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') { row.push(cell); cell = ''; } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(cell); rows.push(row); row = []; cell = '';
    } else cell += ch;
  }
  if (cell !== '' || row.length) { row.push(cell); rows.push(row); }
  return rows.filter((r) => r.length > 1 || r[0] !== '');
}

function marginals(header, data) {
  const box = el('div', { id: 'marginals' });
  const a = el('select', { id: 'marginal-a' });
  const b = el('select', { id: 'marginal-b' });
  b.appendChild(el('option', { value: '', text: '(none: 1-way)' }));
  header.forEach((h, i) => { a.appendChild(el('option', { value: String(i), text: h })); b.appendChild(el('option', { value: String(i), text: h })); });
  const out = el('div', { id: 'marginal-chart' });
  function draw() {
    const i = Number(a.value);
    const counts = new Map();
    if (b.value === '') {
      for (const r of data) counts.set(r[i], (counts.get(r[i]) || 0) + 1);
      const keys = [...counts.keys()].sort((x, y) => (Number(x) - Number(y)) || String(x).localeCompare(String(y)));
      out.replaceChildren(barChart({ id: 'marginal-1', title: `1-way marginal of ${header[i]} (synthetic rows: ${data.length})`,
        labels: keys, series: [{ name: 'fraction', values: keys.map((k) => counts.get(k) / data.length) }], xLabel: header[i], yLabel: 'fraction' }));
    } else {
      const j = Number(b.value);
      const av = [...new Set(data.map((r) => r[i]))].sort(), bv = [...new Set(data.map((r) => r[j]))].sort();
      for (const r of data) { const k = `${r[i]}\u0000${r[j]}`; counts.set(k, (counts.get(k) || 0) + 1); }
      out.replaceChildren(barChart({ id: 'marginal-2', title: `2-way marginal of ${header[i]} × ${header[j]} (fractions of the synthetic rows)`,
        labels: av, xLabel: header[i], yLabel: 'fraction', legend: true,
        series: bv.map((y) => ({ name: `${header[j]} = ${y}`, values: av.map((x) => (counts.get(`${x}\u0000${y}`) || 0) / data.length) })) }));
    }
  }
  a.addEventListener('change', draw);
  b.addEventListener('change', draw);
  box.append(el('h3', { text: 'Marginals of the synthetic data' }),
    el('div', { class: 'row' }, field('Attribute', a), field('Second attribute', b)), out);
  draw();
  return box;
}

export async function synthPage() {
  const list = await datasets();
  if (list.length === 0) return page('Synthetic data', el('p', { text: 'No datasets yet.' }));
  const select = datasetSelect(list, list[0].name, 'synth-dataset');
  const method = el('select', { id: 'synth-method' }, el('option', { value: 'aim', text: 'AIM' }), el('option', { value: 'mst', text: 'MST' }),
    el('option', { value: 'rap', text: 'RAP (Gaussian)' }), el('option', { value: 'mwem', text: 'MWEM' }));
  const eps = el('input', { id: 'synth-epsilon', type: 'number', step: 'any', min: '0', value: '1' });
  const delta = el('input', { id: 'synth-delta', type: 'number', step: 'any', min: '0', value: '1e-9' });
  const domain = el('textarea', { id: 'synth-domain', rows: 4, spellcheck: 'false', class: 'sql' });
  method.addEventListener('change', () => { delta.disabled = method.value === 'mwem'; }); // MWEM is pure DP
  domain.value = '{}';
  const status = el('div', { id: 'synth-status', 'aria-live': 'polite' });
  const form = el('form', { id: 'synth-form', class: 'card' },
    el('div', { class: 'row' }, field('Dataset', select), field('Method', method), field('ε', eps), field('δ', delta)),
    field('Public domain (JSON)', domain, 'Each attribute\'s public domain (Private-PGM sizes or declared values); never read from the data.'),
    el('div', { class: 'actions' }, el('button', { type: 'submit', class: 'primary', id: 'synth-start', text: 'Start job' })), status);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    let dom;
    try { dom = JSON.parse(domain.value); } catch (e) { status.replaceChildren(errorBox({ code: 'bad_request', message: 'domain: not valid JSON' })); return; }
    const body = { dataset: select.value, domain: dom, epsilon: Number(eps.value), method: method.value };
    if (method.value !== 'mwem') body.delta = Number(delta.value);
    const r = await api('POST', '/v1/synth', body, { idempotencyKey: crypto.randomUUID() });
    if (!r.ok) { status.replaceChildren(errorBox(r.error)); return; }
    await follow(r.data.job, status);
  });
  return page('Synthetic data', el('p', { text: 'The whole synthesis is charged once, before any row is read. The synthetic table can then be used freely.' }), form);
}

async function follow(job, status) {
  const progress = el('progress', { id: 'synth-progress', max: '1', 'aria-label': 'synthesis progress' }); // indeterminate until done
  const label = el('span', { id: 'synth-state', text: 'queued' });
  status.replaceChildren(el('p', { id: 'synth-job', 'data-job': String(job) }, `Job ${job}: `, label), progress);
  for (;;) {
    const r = await api('GET', `/v1/synth/${encodeURIComponent(job)}`);
    if (!r.ok) { status.appendChild(errorBox(r.error)); return; }
    const s = r.data;
    label.textContent = String(s.status || s.state || 'running');
    if (typeof s.progress === 'number') progress.value = s.progress;
    if (label.textContent === 'failed') { status.appendChild(errorBox({ code: 'failed', message: s.message || 'the job failed; its charge stands' })); return; }
    if (label.textContent === 'done' || label.textContent === 'succeeded' || label.textContent === 'completed') break;
    await new Promise((res) => setTimeout(res, 500));
  }
  progress.value = 1;
  const d = await api('GET', `/v1/synth/${encodeURIComponent(job)}/data`, undefined, { raw: true });
  if (!d.ok) { status.appendChild(errorBox(d.error)); return; }
  const text = await d.response.text();
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv' }));
  status.appendChild(el('p', {}, el('a', { href: url, download: `synthetic-${job}.csv`, id: 'synth-download', text: 'Download the synthetic CSV' })));
  const rows = parseCsv(text);
  if (rows.length > 1) status.appendChild(marginals(rows[0], rows.slice(1)));
  if (session.role === 'curator') status.appendChild(comparison(job));
}

// The comparison with the real table reads the private data, so the server answers it to the
// curator only (analysts get 403); the console offers it to the curator only.
function comparison(job) {
  const box = el('div', { id: 'comparison', class: 'card' });
  const button = el('button', { type: 'button', id: 'compare-real', text: 'Compare with the real data (curator only)' });
  button.addEventListener('click', async () => {
    const r = await api('GET', `/v1/synth/${encodeURIComponent(job)}/comparison`);
    if (!r.ok) { box.replaceChildren(errorBox(r.error)); return; }
    const c = r.data;
    const summary = [['1-way', c.oneWay], ['2-way', c.twoWay]].filter(([, e]) => e)
      .map(([k, e]) => [k, e.marginals.length, fmt(e.average), fmt(Math.max(...e.marginals.map((m) => m.l1)))]);
    const attr = el('select', { id: 'compare-attribute' });
    c.attributes.forEach((a, i) => attr.appendChild(el('option', { value: String(i), text: a.name })));
    const out = el('div', { id: 'compare-chart' });
    const draw = () => {
      const a = c.attributes[Number(attr.value)];
      out.replaceChildren(barChart({ id: 'compare-1', title: `1-way marginal of ${a.name}: real vs synthetic`, labels: a.labels,
        series: [{ name: 'real', values: a.real }, { name: 'synthetic', values: a.synthetic }], xLabel: a.name, yLabel: 'fraction' }));
    };
    attr.addEventListener('change', draw);
    box.replaceChildren(el('h3', { text: 'Synthetic vs real (curator only)' }),
      el('p', { text: `Real rows: ${c.realRows}; synthetic rows: ${c.syntheticRows}. Errors are L1 distances between normalized marginals (0 to 2).` }),
      el('div', { class: 'table-wrap' }, table(['marginals', 'count', 'mean L1 error', 'max L1 error'], summary, { id: 'compare-summary' })),
      field('Attribute', attr), out);
    if (c.attributes.length) draw();
  });
  box.append(el('p', { text: 'Reads the private table: shown to the curator only, never to analysts.' }), button);
  return box;
}

// ---- curator

export async function curatorPage() {
  const [an, ds] = await Promise.all([api('GET', '/v1/analysts'), api('GET', '/v1/datasets')]);
  if (!an.ok) return page('Curator', errorBox(an.error));
  if (ds.ok) ds.data = ds.data.filter((d) => !d.nameClash);
  const accounts = el('div', { class: 'table-wrap' }, table(['name', 'role', 'created', 'revoked', ''], an.data.map((a) => [a.name, a.role, time(a.created), a.revoked ? time(a.revoked) : '—',
    a.revoked ? '' : el('button', { type: 'button', class: 'small danger', 'data-revoke': a.name, text: `Revoke ${a.name}`,
      onclick: async () => {
        if (!window.confirm(`Revoke ${a.name}? Their key stops working at once.`)) return;
        const r = await api('DELETE', `/v1/analysts/${encodeURIComponent(a.name)}`);
        if (r.ok) go('curator', {}); else addOut.replaceChildren(errorBox(r.error));
      } })]), { id: 'analysts-table' }));
  const name = el('input', { id: 'analyst-name', autocomplete: 'off', required: true });
  const role = el('select', { id: 'analyst-role' }, el('option', { value: 'analyst', text: 'analyst' }), el('option', { value: 'curator', text: 'curator' }));
  const addOut = el('div', { id: 'analyst-result', 'aria-live': 'polite' });
  const addForm = el('form', { id: 'analyst-form', class: 'card' }, el('h3', { text: 'Add an analyst' }),
    el('div', { class: 'row' }, field('Name', name), field('Role', role)),
    el('button', { type: 'submit', class: 'primary', text: 'Add' }), addOut);
  addForm.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const r = await api('POST', '/v1/analysts', { name: name.value, role: role.value });
    if (!r.ok) { addOut.replaceChildren(errorBox(r.error)); return; }
    addOut.replaceChildren(el('div', { class: 'newkey', role: 'status' },
      el('p', { text: `API key for ${r.data.name} (shown once; it is not stored in clear anywhere):` }),
      el('output', { id: 'new-key', class: 'key', text: r.data.apiKey }),
      el('p', {}, el('button', { type: 'button', class: 'small', text: 'Done (refresh the list)', onclick: () => go('curator', {}) }))));
  });

  const dsList = ds.ok ? ds.data : [];
  const gDataset = datasetSelect(dsList, dsList[0] && dsList[0].name, 'grant-dataset');
  const gAnalyst = el('select', { id: 'grant-analyst' });
  an.data.filter((a) => !a.revoked).forEach((a) => gAnalyst.appendChild(el('option', { value: a.name, text: a.name })));
  const gEps = el('input', { id: 'grant-epsilon', type: 'number', step: 'any', min: '0', value: '1' });
  const gDelta = el('input', { id: 'grant-delta', type: 'number', step: 'any', min: '0', value: '0' });
  const grantOut = el('div', { id: 'grant-result', 'aria-live': 'polite' });
  const grantForm = el('form', { id: 'grant-form', class: 'card' }, el('h3', { text: 'Grant a budget share' }),
    el('div', { class: 'row' }, field('Dataset', gDataset), field('Analyst', gAnalyst), field('ε', gEps), field('δ', gDelta)),
    el('button', { type: 'submit', class: 'primary', text: 'Grant' }), grantOut);
  grantForm.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const body = { dataset: gDataset.value, analyst: gAnalyst.value, epsilon: Number(gEps.value) };
    if (Number(gDelta.value) > 0) body.delta = Number(gDelta.value);
    const r = await api('POST', '/v1/grants', body);
    grantOut.replaceChildren(r.ok ? el('p', { class: 'info', text: `Granted ${lossText(r.data.share, 'down')} on ${r.data.dataset} to ${r.data.analyst}.` }) : errorBox(r.error));
  });

  const reg = el('textarea', { id: 'register-json', rows: 10, spellcheck: 'false', class: 'sql' });
  reg.value = JSON.stringify({ name: 'adult', source: '/path/to/adult.data', format: 'csv',
    csv: { header: false, delimiter: ', ', columns: ['age', 'sex'], nullString: '?' }, privacyUnit: null,
    relation: 'ADD_REMOVE_ONE', budget: { measure: 'approx', epsilon: 3, delta: 1e-5 }, accountant: 'basic', bounds: {}, publicKeys: {} }, null, 2);
  const regOut = el('div', { id: 'register-result', 'aria-live': 'polite' });
  const regForm = el('form', { id: 'register-form', class: 'card' }, el('h3', { text: 'Register a dataset' }),
    field('Registration (the JSON of privet dataset show --format json)', reg, 'The schema and metadata fixed here are public: analysts see them.'),
    el('button', { type: 'submit', class: 'primary', text: 'Register' }), regOut);
  regForm.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    let body;
    try { body = JSON.parse(reg.value); } catch (e) { regOut.replaceChildren(errorBox({ code: 'bad_request', message: 'not valid JSON' })); return; }
    const r = await api('POST', '/v1/datasets', body);
    regOut.replaceChildren(r.ok ? el('p', { class: 'info', text: `Registered ${r.data.name}.` }) : errorBox(r.error));
  });
  return page('Curator', el('h3', { text: 'Accounts' }), accounts, addForm, grantForm, regForm);
}

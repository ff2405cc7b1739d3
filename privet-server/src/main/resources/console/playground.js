// Privet playground: the lecture material, computed by privet-core on the server's
// /v1/playground routes. No sign-in and no data.
import { el, fmt, lineChart, barChart } from './charts.js';
import { api, errorBox } from './app.js';

function num(id, label, value, attrs) {
  const input = el('input', Object.assign({ id, name: id, type: 'number', step: 'any', value: String(value) }, attrs || {}));
  return [input, el('div', { class: 'field' }, el('label', { for: id, text: label }), input)];
}

function choice(id, label, options) {
  const s = el('select', { id, name: id });
  for (const [v, t] of options) s.appendChild(el('option', { value: v, text: t }));
  return [s, el('div', { class: 'field' }, el('label', { for: id, text: label }), s)];
}

function section(id, title, intro, form, out) {
  return el('section', { class: 'card playground', id, 'aria-labelledby': `${id}-title` },
    el('h3', { id: `${id}-title`, tabindex: '-1', text: title }), el('p', { class: 'intro', text: intro }), form, out);
}

function query(params) {
  return Object.entries(params).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`).join('&');
}

async function load(out, path, params, draw) {
  out.setAttribute('aria-busy', 'true');
  const r = await api('GET', `/v1/playground/${path}?${query(params)}`);
  out.replaceChildren(r.ok ? draw(r.data) : errorBox(r.error));
  out.setAttribute('aria-busy', 'false');
}

function form(id, fields, onSubmit) {
  const f = el('form', { id, class: 'row' }, ...fields, el('div', { class: 'field submit' }, el('button', { type: 'submit', text: 'Update' })));
  f.addEventListener('submit', (ev) => { ev.preventDefault(); onSubmit(); });
  return f;
}

// ---- randomized response

function rrSection() {
  const [protocol, protocolF] = choice('rr-protocol', 'Protocol', [['epsilon', 'ε-randomized response'], ['two-coin', 'two coins (ε = ln 3)']]);
  const [eps, epsF] = num('rr-epsilon', 'ε', 1, { min: '0.01' });
  const [truth, truthF] = num('rr-truth', 'True fraction', 0.3, { min: '0', max: '1' });
  const [maxN, maxNF] = num('rr-maxn', 'Largest survey n', 10000, { min: '10', max: '100000', step: '1' });
  const out = el('div', { id: 'rr-out', 'aria-live': 'polite' });
  const update = () => load(out, 'randomized-response', { protocol: protocol.value, epsilon: eps.value, truth: truth.value, maxN: maxN.value, beta: 0.05 }, (d) => {
    const x = d.points.map((p) => p.n);
    return el('div', {},
      el('p', { id: 'rr-summary', 'data-truth-probability': String(d.truthProbability), text: `Each person tells the truth with probability ${fmt(d.truthProbability)} (ε = ${fmt(d.epsilon)}). The estimate is debiased; its ${Math.round((1 - d.beta) * 100)}% interval shrinks like 1/√n.` }),
      lineChart({ id: 'rr-chart', title: 'Debiased estimate of the true fraction, with its confidence interval, as the survey grows',
        x, xLog: true, xLabel: 'survey size n', yLabel: 'fraction', yMin: 0, yMax: 1,
        series: [{ name: 'estimate', y: d.points.map((p) => p.estimate), lower: d.points.map((p) => p.lower), upper: d.points.map((p) => p.upper), points: true },
          { name: 'truth', y: x.map(() => d.truth), dashed: true }] }));
  });
  protocol.addEventListener('change', () => { eps.disabled = protocol.value === 'two-coin'; });
  const s = section('pg-rr', 'Randomized response', 'Simulate a survey of n people: each answers a sensitive yes/no question through randomized response; the analyst only sees the noisy answers.',
    form('rr-form', [protocolF, epsF, truthF, maxNF], update), out);
  update();
  return s;
}

// ---- neighbouring datasets and hypothesis testing

function neighboursSections() {
  const [mech, mechF] = choice('nb-mechanism', 'Mechanism', [['laplace', 'Laplace'], ['gaussian', 'Gaussian'], ['geometric', 'Geometric (discrete Laplace)']]);
  const [eps, epsF] = num('nb-epsilon', 'ε', 1, { min: '0.01' });
  const [delta, deltaF] = num('nb-delta', 'δ (Gaussian)', 1e-3, { min: '0' });
  const [sens, sensF] = num('nb-sensitivity', 'Sensitivity Δ', 1, { min: '0.01' });
  const out = el('div', { id: 'nb-out', 'aria-live': 'polite' });
  const testOut = el('div', { id: 'ht-out', 'aria-live': 'polite' });
  const update = () => load(out, 'neighbours', { mechanism: mech.value, epsilon: eps.value, delta: delta.value, sensitivity: sens.value }, (d) => {
    // Shade where the privacy loss exceeds ε: the δ region (empty for the pure mechanisms).
    const shade = [];
    let start = null;
    d.x.forEach((x, i) => {
      const over = d.loss[i] > d.epsilon + 1e-12;
      if (over && start === null) start = x;
      if (!over && start !== null) { shade.push({ x0: start, x1: d.x[i - 1] }); start = null; }
    });
    if (start !== null) shade.push({ x0: start, x1: d.x[d.x.length - 1] });
    const ht = d.hypothesisTest;
    testOut.replaceChildren(
      el('p', { id: 'ht-summary', text: `Best attacker's accuracy at telling D from D′ from one output: ${fmt(ht.bestAccuracy)}; the (ε, δ) bound is ${fmt(ht.bound)}.` }),
      lineChart({ id: 'ht-chart', title: 'Best test accuracy against its bound (e^ε + δ)/(1 + e^ε), as ε grows', x: ht.sweep.map((s) => s.epsilon),
        xLabel: 'ε', yLabel: 'accuracy', yMin: 0.5, yMax: 1,
        series: [{ name: 'best attacker', y: ht.sweep.map((s) => s.bestAccuracy) }, { name: 'bound', y: ht.sweep.map((s) => s.bound), dashed: true }] }));
    const lossFinite = d.loss.map((l) => (Number.isFinite(l) ? l : null));
    return el('div', {},
      el('p', { id: 'nb-summary', 'data-profile-delta': String(d.profileDelta), text: `Noise scale ${fmt(d.scale)} (the library's calibration). ` +
        (d.mechanism === 'gaussian' ? `δ spent at ε: ${fmt(d.profileDelta)} (exact profile); mass of the shaded region where the loss exceeds ε: ${fmt(d.deltaRegionMass)}.` : 'Pure DP: the loss never leaves the ±ε band.') }),
      lineChart({ id: 'nb-density', title: `Output ${d.discrete ? 'probabilities' : 'densities'} on D (true answer 0) and D′ (true answer Δ)`, x: d.x,
        xLabel: 'output', yLabel: d.discrete ? 'probability' : 'density', yMin: 0, shade, step: d.discrete,
        series: [{ name: 'on D', y: d.densityD }, { name: 'on D′', y: d.densityDPrime, dashed: true }] }),
      lineChart({ id: 'nb-loss', title: 'Privacy loss ln(p_D(x)/p_D′(x)) against the ±ε band', x: d.x, xLabel: 'output', yLabel: 'privacy loss',
        bands: [{ y0: -d.epsilon, y1: d.epsilon }], shade,
        series: [{ name: 'privacy loss', y: lossFinite }] }));
  });
  const nb = section('pg-neighbours', 'Neighbouring datasets', 'One person more or less moves the true answer by Δ. The mechanism\'s noise makes the two output distributions hard to tell apart: their ratio stays within e^ε (except, for the Gaussian, on a region of probability δ).',
    form('nb-form', [mechF, epsF, deltaF, sensF], update), out);
  const ht = section('pg-test', 'The hypothesis-testing view', 'An attacker sees one output and guesses whether it came from D or D′. No test can be right more often than e^ε/(1 + e^ε) (plus δ/(1 + e^ε)).', el('div'), testOut);
  update();
  return [nb, ht];
}

// ---- composition

function compositionSection() {
  const [mech, mechF] = choice('co-mechanism', 'Mechanism', [['laplace', 'Laplace (ε₀ per run)'], ['gaussian', 'Gaussian (noise multiplier σ)']]);
  const [param, paramF] = num('co-param', 'ε₀ or σ', 0.1, { min: '0.001' });
  const [delta, deltaF] = num('co-delta', 'Target δ', 1e-5, { min: '0' });
  const [maxK, maxKF] = num('co-maxk', 'Runs k up to', 100, { min: '1', max: '500', step: '1' });
  const rate = el('input', { id: 'co-rate', type: 'range', min: '0.01', max: '1', step: '0.01', value: '1' });
  const rateText = el('output', { for: 'co-rate', id: 'co-rate-value', text: '1' });
  const rateF = el('div', { class: 'field' }, el('label', { for: 'co-rate', text: 'Sampling rate q' }), rate, rateText);
  const out = el('div', { id: 'co-out', 'aria-live': 'polite' });
  mech.addEventListener('change', () => { param.value = mech.value === 'gaussian' ? '2' : '0.1'; });
  const update = () => load(out, 'composition', { mechanism: mech.value, param: param.value, samplingRate: rate.value, delta: delta.value, maxK: maxK.value }, (d) => {
    const names = { basic: 'basic', advanced: 'advanced', zcdp: 'zCDP', rdp: 'RDP', pld: 'PLD' };
    const series = Object.entries(d.curves).map(([k, c]) => ({ name: names[k] || k, y: c.epsilon, points: true }));
    const refusals = Object.entries(d.curves).filter(([, c]) => c.refusal).map(([k, c]) => el('li', { text: `${names[k] || k}: ${c.refusal}` }));
    return el('div', {},
      lineChart({ id: 'co-chart', title: `Total ε at δ = ${fmt(d.delta)} after k runs (sampling rate ${fmt(d.samplingRate)})`, x: d.k, xLog: true,
        xLabel: 'runs k', yLabel: 'total ε', yMin: 0, series, legend: true }),
      d.samplingRate < 1 ? el('p', { class: 'hint', text: 'Basic, advanced, RDP and PLD use amplification by subsampling; the zCDP accountant composes the base mechanism\'s ρ, so its curve does not move with q.' }) : null,
      refusals.length ? el('div', { class: 'hint' }, el('p', { text: 'No curve where the accountant does not apply:' }), el('ul', {}, refusals)) : null);
  });
  rate.addEventListener('input', () => { rateText.textContent = rate.value; });
  let timer = null;
  rate.addEventListener('change', () => { clearTimeout(timer); timer = setTimeout(update, 350); });
  const s = section('pg-composition', 'Composition', 'Run a mechanism k times: how much privacy is lost in total? Each accountant gives a valid upper bound; the tighter ones (zCDP, RDP, PLD) let you run far more. Sampling each run on a random subset amplifies privacy.',
    form('co-form', [mechF, paramF, deltaF, maxKF, rateF], update), out);
  update();
  return s;
}

// ---- selection

function selectionSection() {
  const [mech, mechF] = choice('se-mechanism', 'Mechanism', [['exponential', 'Exponential mechanism'], ['noisy-max', 'Report noisy max (Laplace)']]);
  const utilities = el('input', { id: 'se-utilities', type: 'text', value: '3, 5, 6, 9', inputmode: 'decimal' });
  const utilitiesF = el('div', { class: 'field' }, el('label', { for: 'se-utilities', text: 'Utilities (comma-separated)' }), utilities);
  const [eps, epsF] = num('se-epsilon', 'ε', 1, { min: '0.01' });
  const [sens, sensF] = num('se-sensitivity', 'Utility sensitivity Δu', 1, { min: '0.01' });
  const [trials, trialsF] = num('se-trials', 'Draws', 2000, { min: '1', max: '20000', step: '1' });
  const out = el('div', { id: 'se-out', 'aria-live': 'polite' });
  const update = () => load(out, 'selection', { mechanism: mech.value, utilities: utilities.value.replace(/\s+/g, ''), epsilon: eps.value, sensitivity: sens.value, trials: trials.value }, (d) => {
    const labels = d.candidates.map((c, i) => `#${i + 1} (u=${fmt(c.utility)})`);
    const series = [{ name: `observed in ${d.trials} draws`, values: d.candidates.map((c) => c.observed) }];
    if (d.candidates.some((c) => c.ideal !== null)) series.push({ name: 'exp(εu/2Δu), normalised', values: d.candidates.map((c) => c.ideal) });
    return barChart({ id: 'se-chart', title: 'Selection probability of each candidate', labels, series, yLabel: 'probability', xLabel: 'candidate', yMax: 1 });
  });
  const s = section('pg-selection', 'Exponential mechanism and report-noisy-max', 'Pick the best candidate privately: better candidates are exponentially more likely, but every candidate keeps some chance.',
    form('se-form', [mechF, utilitiesF, epsF, sensF, trialsF], update), out);
  update();
  return s;
}

export async function playgroundPage() {
  const nav = el('nav', { class: 'toc', 'aria-label': 'Playground sections' }, el('ul', {},
    [['pg-rr', 'Randomized response'], ['pg-neighbours', 'Neighbouring datasets'], ['pg-test', 'Hypothesis testing'], ['pg-composition', 'Composition'], ['pg-selection', 'Selection']]
      .map(([id, t]) => el('li', {}, el('a', { href: `#/playground`, 'data-target': id, text: t, onclick: (ev) => { ev.preventDefault(); const s = document.getElementById(id); s.scrollIntoView(); s.querySelector('h3').focus(); } })))));
  const [nb, ht] = neighboursSections();
  return el('section', { class: 'page' }, el('h2', { text: 'Playground' }),
    el('p', { text: 'Differential privacy, interactively. Everything here is computed by Privet\'s library on synthetic inputs; no sign-in, no data.' }),
    nav, rrSection(), nb, ht, compositionSection(), selectionSection());
}

// Where an edit's, a drag's or a zoom's time goes: a CPU profile of 40 edits of the TTL (or 60
// moves of a pause's drag, or 20 zooms in and out by the keys), made as `run.mjs --measure` makes them (measure.mjs), in headless Chromium,
// printed as time per edit by crate and by function, both for the function itself and with what
// it calls. Run through scripts/profile, which builds the app with its function names kept.
// Usage: node tests/e2e/profile.mjs DIST [edits|drag|zoom] [split|large]   (ROWS=n: the last table's
// rows, 30 unless given)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from './node_modules/playwright-core/index.mjs';
import { dragFps, editTimes, serve } from './measure.mjs';

const [dir, mode = 'edits', which = 'large'] = process.argv.slice(2);
if (!dir || !['edits', 'drag', 'zoom'].includes(mode) || !['split', 'large'].includes(which)) {
  console.error('usage: node tests/e2e/profile.mjs DIST [edits|drag|zoom] [split|large]');
  process.exit(2);
}
const { server, base } = await serve(dir);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
await context.addInitScript(() => localStorage.setItem('leaselab.intro', 'seen'));
const page = await context.newPage();
const fixture = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/large-redlock.json');
const query = which === 'large'
  ? `#s=${Buffer.from(JSON.stringify(JSON.parse(fs.readFileSync(fixture, 'utf8')))).toString('base64url')}`
  : '?scenario=redlock-split-vote';
await page.goto(`${base}/${query}`);
await page.waitForSelector('#app[data-steps]');
const cdp = await context.newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
let result, count;
if (mode === 'edits') {
  count = 40;
  await page.click('#tab-Change');
  await cdp.send('Profiler.start');
  const { work } = await editTimes(page, count);
  work.sort((a, b) => a - b);
  result = `edit → end of the render work: median ${work[count >> 1].toFixed(1)} ms`;
} else if (mode === 'zoom') {
  // Z and X in turn, from the whole run to 8× and back: each zoom lays the run out again.
  count = 20;
  await page.click('#tab-Inspect');
  await cdp.send('Profiler.start');
  const work = await page.evaluate(async (n) => {
    const out = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      document.dispatchEvent(new KeyboardEvent('keydown', { key: i % 6 < 3 ? 'z' : 'x', bubbles: true }));
      // To the next frame: Yew yields to the browser during a long render, so the next task
      // may come before the render's end.
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      out.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 50));
    }
    return out;
  }, count);
  work.sort((a, b) => a - b);
  result = `zoom → the frame after it: median ${work[count >> 1].toFixed(1)} ms`;
} else {
  count = 60;
  await page.click('#tab-Inspect');
  const d = await dragFps(page, count, () => cdp.send('Profiler.start'));
  result = `dragging a pause: ${d.fps.toFixed(1)} frames per second (longest frame ${d.worst.toFixed(1)} ms)`;
}
const { profile } = await cdp.send('Profiler.stop');
await browser.close();
server.close();

// Self and inclusive time per function name (a recursive name counts once per sample).
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
const name = (id) => byId.get(id).callFrame.functionName.replace(/::h[0-9a-f]{16}$/, '').replace(/\[[0-9a-f]+\]/g, '') || '(anonymous)';
const own = new Map(), total = new Map(), crates = new Map();
const add = (m, k, d) => m.set(k, (m.get(k) || 0) + d);
profile.samples.forEach((id, i) => {
  const d = profile.timeDeltas[i] || 0;
  const leaf = name(id);
  if (leaf === '(idle)') return;
  add(own, leaf, d);
  const m = leaf.match(/^<?&?<?([a-z_0-9]+)::/);
  add(crates, m ? m[1] : leaf.startsWith('(') ? leaf : 'JavaScript and the browser', d);
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const n = name(cur);
    if (!seen.has(n)) { seen.add(n); add(total, n, d); }
  }
});
const show = (title, m, rows) => {
  console.log(`\n${title}`);
  for (const [k, t] of [...m].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
    console.log(`${(t / 1000 / count).toFixed(2).padStart(8)} ms  ${k.slice(0, 140)}`);
  }
};
console.log(`${which === 'large' ? 'the 9,818-event run' : 'redlock-split-vote'}: ${result}`);
console.log('(ms per edit or move; "(program)" is the browser\'s own work: style, layout, paint)');
show('by crate, own time', crates, 15);
show('by function, own time', own, 25);
show('by function, with what it calls', new Map([...total].filter(([k]) => !/^(\(root\)|js-to-wasm|wasm-to-js|real|wasm_bindgen|js_sys|.*closures|.*invoke)/.test(k))), +(process.env.ROWS || 30));

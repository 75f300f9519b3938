import { chromium } from 'playwright-core';
import fs from 'fs';
const ids = fs.readdirSync('../../crates/sim/scenarios').map((f) => f.replace(/\.json$/, '')).sort();
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const [W, H] = process.argv.slice(2).map(Number);
const ctx = await b.newContext({ viewport: { width: W, height: H } });
const page = await ctx.newPage();
await page.goto('http://localhost:8766/?scenario=lease-basics');
await page.evaluate(() => localStorage.setItem('leaselab.intro', 'seen'));
const sels = ['.stage > .timeline-wrap', '.stage > .controls', '.stage > .narration', '.stage > .verdict h2', '.stage > .verdict'];
let bad = 0;
for (const id of ids) {
  await page.goto(`http://localhost:8766/?scenario=${id}`);
  await page.waitForSelector('#app[data-steps]');
  const r = await page.evaluate((sels) => sels.map((s) => { const e = document.querySelector(s); const r = e && e.getBoundingClientRect(); return r ? [Math.round(r.top), Math.round(r.bottom)] : null; }), sels);
  const ok = r[1][1] <= H && r[2][1] <= H && r[3][1] <= H && r[0][1] <= H;
  if (!ok) bad++;
  console.log(ok ? 'ok ' : 'BAD', id, JSON.stringify(r));
}
console.log('bad', bad, 'of', ids.length);
await b.close();

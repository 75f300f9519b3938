// Two builds (or more) compared in one sitting, alternately, as these shared machines need: for
// each, 40 TTL edits on redlock-split-vote and on the 9,818-event fixture (edit → end of the
// render work, as run.mjs --measure times it: measure.mjs), the 25th percentile and the median
// per round; with --drag, frames per second dragging the large run's pause.
// Usage: node tests/e2e/ab.mjs DIST_A DIST_B [--drag]   (ROUNDS=n, 3 unless given; EDITS=n, 40)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from './node_modules/playwright-core/index.mjs';
import { editTimes, dragFps, serve } from './measure.mjs';
const dirs = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const rounds = +(process.env.ROUNDS || 3), n = +(process.env.EDITS || 40);
if (dirs.length < 2) {
  console.error('usage: node tests/e2e/ab.mjs DIST_A DIST_B [--drag]');
  process.exit(2);
}
const servers = [];
for (const d of dirs) servers.push(await serve(d));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const fixture = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/large-redlock.json');
const large = `#s=${Buffer.from(JSON.stringify(JSON.parse(fs.readFileSync(fixture, 'utf8')))).toString('base64url')}`;
const q = (xs, f) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) * f)].toFixed(1); };
for (let r = 0; r < rounds; r++) {
  for (const [k, { base }] of servers.entries()) {
    const out = [];
    for (const [name, query] of [['split', '?scenario=redlock-split-vote'], ['large', large]]) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addInitScript(() => localStorage.setItem('leaselab.intro', 'seen'));
      const page = await context.newPage();
      await page.goto(`${base}/${query}`);
      await page.waitForSelector('#app[data-steps]');
      await page.click('#tab-Change');
      const { work, frame } = await editTimes(page, n);
      let fps = '';
      if (name === 'large' && process.argv.includes('--drag')) { await page.click('#tab-Inspect'); fps = ` drag ${(await dragFps(page, 60)).fps.toFixed(1)} fps`; }
      out.push(`${name}: work p25 ${q(work, 0.25)} med ${q(work, 0.5)}, frame med ${q(frame, 0.5)}${fps}`);
      await context.close();
    }
    console.log(`round ${r} ${dirs[k]}: ${out.join(' | ')}`);
  }
}
await browser.close();
for (const s of servers) s.server.close();

// The Embed dialog's snippets on an ordinary static host: `python3 -m http.server`, which sends
// no CORS headers, serving the release build (dist/) at /leaselab/ and a documentation page at
// /docs/. The page is opened from the same origin (the app under a sub-path) and from another
// one (localhost rather than 127.0.0.1: another origin, the same server). For each, it prints
// whether the script snippet's run is mounted, its height, and what the page shows when it is
// not; for the iframe snippet in a 760 px column, how far the tallest step's narration overflows.
// Usage: node tests/e2e/static-host.mjs [PORT]   (after scripts/build; PORT 8611 unless given)
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const port = Number(process.argv[2] || 8611);
const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'leaselab-host-'));
fs.symlinkSync(dist, path.join(root, 'leaselab'));
fs.mkdirSync(path.join(root, 'docs'));
const server = spawn('python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1', '-d', root], { stdio: 'ignore' });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  for (let i = 0; ; i++) {
    try { await page.goto(`http://127.0.0.1:${port}/leaselab/?scenario=gc-pause-fenced&step=84`); break; } catch (e) {
      if (i > 50) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await page.waitForSelector('#app[data-steps]');
  await page.click('button.share-toggle');
  await page.click('text=Embed');
  const script = await page.inputValue('.embed-dialog textarea.snippet-script');
  const iframe = await page.inputValue('.embed-dialog textarea.snippet-iframe');
  const doc = (body) => `<!doctype html><meta charset="utf-8"><title>Docs</title><link rel="icon" href="data:,">
    <main style="max-width: 760px; margin: 20px auto; font-family: Georgia, serif"><h1>Fencing</h1>${body}<p>After the run.</p></main>`;
  fs.writeFileSync(path.join(root, 'docs/script.html'), doc(script));
  fs.writeFileSync(path.join(root, 'docs/iframe.html'), doc(iframe));
  console.log(`script snippet:\n  ${script.replaceAll('\n', '\n  ')}`);
  for (const [what, origin] of [['same origin, app under /leaselab/', '127.0.0.1'], ['cross-origin (localhost → 127.0.0.1)', 'localhost']]) {
    const p = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const console_ = [];
    p.on('console', (m) => { if (m.type() === 'error') console_.push(m.text()); });
    await p.goto(`http://${origin}:${port}/docs/script.html`);
    // Mounted in the element's shadow root, or in a frame the script put there.
    const mounted = async () => (await p.locator('[data-leaselab] #app[data-steps]').count())
      || (await Promise.all(p.frames().slice(1).map((f) => f.locator('#app[data-steps]').count()))).some(Boolean);
    const t0 = Date.now();
    while (!(await mounted()) && Date.now() - t0 < 8000) await p.waitForTimeout(100);
    await p.waitForTimeout(500);
    const height = await p.locator('[data-leaselab]').evaluate((e) => Math.round(e.getBoundingClientRect().height));
    const shown = (await p.locator('[data-leaselab]').innerText()).trim();
    console.log(`${what}: mounted ${(await mounted()) ? 'yes' : 'no'}, ${height} px high${shown ? `; it says: ${shown.slice(0, 300)}` : ''}`);
    if (console_.length) console.log(`  console: ${console_[0].slice(0, 200)}`);
    await p.close();
  }
  // The iframe snippet in a 760 px column, as given and without its script line (a host that
  // strips scripts): the largest overflow over every step.
  const plain = iframe.replace(/\n?<script[^>]*><\/script>/, '');
  fs.writeFileSync(path.join(root, 'docs/iframe-plain.html'), doc(plain));
  for (const [what, file] of [['iframe snippet', 'iframe.html'], ['iframe without its script line', 'iframe-plain.html']]) {
    const p = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await p.goto(`http://localhost:${port}/docs/${file}`);
    const inside = p.frameLocator('iframe');
    await inside.locator('#app[data-steps]').waitFor();
    const steps = Number(await inside.locator('#app').getAttribute('data-steps'));
    const given = await p.locator('iframe').getAttribute('height');
    let worst = { over: -Infinity, step: 0 };
    await inside.locator('#app').focus();
    await p.keyboard.press('Home');
    for (let s = 1; s <= steps; s++) {
      await p.waitForTimeout(30);
      const over = await inside.locator('body').evaluate((b) => Math.ceil(b.getBoundingClientRect().bottom - window.innerHeight));
      if (over > worst.over) worst = { over, step: s };
      await p.keyboard.press('ArrowRight');
    }
    const now = await p.locator('iframe').evaluate((f) => Math.round(f.getBoundingClientRect().height));
    console.log(`${what} (height="${given}"), 760 px column, ${steps} steps: ${worst.over > 0 ? `cut by ${worst.over} px at step ${worst.step}` : `no step cut (the closest, step ${worst.step}: ${-worst.over} px to spare)`}; the frame is ${now} px high after the last step`);
    await p.close();
  }
} finally {
  await browser.close();
  server.kill();
  fs.rmSync(root, { recursive: true, force: true });
}

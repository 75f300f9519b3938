// Screenshots of the learning screens, for looking at them as a student would:
//   node tests/e2e/shots.mjs OUTDIR [BASE]
// (serve dist/ first, e.g. python3 -m http.server 8080 --directory dist). Each screen is taken
// on a desktop, on a phone (390 × 844, touch) and in dark mode: the first visit, the stale write
// and its fenced twin, playing in time (the leases' rings draining, a quiet stretch compressed),
// the notice after an edit, predict mode asking and answered, the end of a run, the Embed dialog,
// an embed in a dark theme on a light page, the guide and the debate.
import { chromium } from 'playwright-core';
import fs from 'node:fs';

const out = process.argv[2] || '/tmp/shots';
const base = process.argv[3] || 'http://127.0.0.1:8080';
fs.mkdirSync(out, { recursive: true });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const ready = (page) => page.waitForSelector('#app[data-steps]');
const screens = [
  ['first-visit', async (page) => {
    await page.goto(`${base}/`);
    await page.evaluate(() => localStorage.removeItem('leaselab.intro'));
    await page.reload();
    await ready(page);
  }],
  ['stale-write', async (page) => { await page.goto(`${base}/?scenario=gc-pause-unfenced&step=85`); await ready(page); }],
  ['fenced-rejection', async (page) => { await page.goto(`${base}/?scenario=gc-pause-fenced&step=84`); await ready(page); }],
  ['in-time', async (page) => {
    await page.goto(`${base}/?scenario=gc-pause-unfenced&step=14`);
    await ready(page);
    await page.selectOption('select[aria-label^="Play step by step or in time"]', 'time');
    await page.locator('button.play').first().click();
    await page.waitForSelector('.where .fast', { timeout: 5000 }).catch(() => {});
  }],
  ['after-edit', async (page) => {
    await page.goto(`${base}/?scenario=gc-pause-unfenced&step=60`);
    await ready(page);
    await page.click('#tab-Change');
    await page.fill('#f-ttl', '30000');
    await page.press('#f-ttl', 'Enter');
    await page.waitForTimeout(300);
  }],
  ['predict-ask', async (page) => {
    await page.goto(`${base}/?scenario=gc-pause-unfenced&predict=1`);
    await ready(page);
    await page.keyboard.press('End');
    await page.waitForSelector('.predict.ask');
  }],
  ['predict-reveal', async (page) => {
    await page.goto(`${base}/?scenario=gc-pause-unfenced&predict=1`);
    await ready(page);
    await page.keyboard.press('End');
    await page.waitForSelector('.predict.ask');
    await page.keyboard.press('a');
    await page.waitForSelector('.predict.reveal');
  }],
  ['end', async (page) => { await page.goto(`${base}/?scenario=gc-pause-unfenced&step=95`); await page.waitForSelector('.end-of-run'); }],
  ['embed-dialog', async (page) => {
    await page.goto(`${base}/?scenario=gc-pause-fenced&step=84`);
    await ready(page);
    await page.click('button.share-toggle');
    await page.click('text=Embed');
    await page.waitForSelector('.embed-dialog');
  }],
  ['embed-dark', async (page) => {
    await page.setContent(`<!doctype html><body style="font-family:Georgia,serif;margin:20px"><h1>Fencing tokens</h1>
      <iframe src="${base}/?scenario=gc-pause-fenced&step=84&embed=1&theme=dark&controls=play" width="100%" height="640" style="border:0"></iframe></body>`);
    await page.frameLocator('iframe').locator('#app[data-steps]').waitFor();
  }],
  ['guide', async (page) => { await page.goto(`${base}/?page=guide`); await page.waitForSelector('.guide-questions[data-ready]'); }],
  ['debate', async (page) => { await page.goto(`${base}/?page=debate`); await page.waitForSelector('.side-card'); }],
];
const devices = [
  ['desk', { viewport: { width: 1280, height: 800 }, colorScheme: 'light' }],
  ['phone', { viewport: { width: 390, height: 844 }, colorScheme: 'light', hasTouch: true, isMobile: true }],
  ['dark', { viewport: { width: 1280, height: 800 }, colorScheme: 'dark' }],
];
for (const [tag, options] of devices) {
  const context = await browser.newContext(options);
  // Past the first visit's introduction, except on the screen that shows it.
  await context.addInitScript(() => { if (!location.search.includes('intro')) localStorage.setItem('leaselab.intro', 'seen'); });
  for (const [name, go] of screens) {
    const page = await context.newPage();
    try {
      if (name === 'first-visit') {
        await page.goto(`${base}/?intro`);
        await page.evaluate(() => localStorage.removeItem('leaselab.intro'));
        await page.goto(`${base}/?intro`);
        await ready(page);
      } else {
        await go(page);
      }
      await page.screenshot({ path: `${out}/${tag}-${name}.png`, fullPage: name === 'end' || name === 'guide' || name === 'debate' });
      console.log(`${out}/${tag}-${name}.png`);
    } catch (e) {
      console.log(`${tag}-${name}: could not be taken: ${String(e).split('\n')[0]}`);
    }
    await page.close();
  }
  await context.close();
}
await browser.close();

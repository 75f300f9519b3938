// Screenshots of the learning screens, for looking at them: node tests/e2e/shots.mjs OUTDIR [BASE]
// (serve dist/ first, e.g. python3 -m http.server 8080 --directory dist).
import { chromium } from 'playwright-core';
import fs from 'node:fs';

const out = process.argv[2] || '/tmp/shots';
const base = process.argv[3] || 'http://127.0.0.1:8080';
fs.mkdirSync(out, { recursive: true });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
for (const [tag, viewport, scheme] of [['desk', { width: 1280, height: 800 }, 'light'], ['phone', { width: 390, height: 844 }, 'light'], ['dark', { width: 1280, height: 800 }, 'dark']]) {
  const page = await browser.newPage({ viewport, colorScheme: scheme });
  await page.goto(`${base}/?scenario=gc-pause-unfenced&predict=1`);
  await page.waitForSelector('#app');
  await page.keyboard.press('End');
  await page.waitForSelector('.predict.ask');
  await page.screenshot({ path: `${out}/${tag}-ask.png` });
  await page.keyboard.press('1');
  await page.waitForSelector('.predict.reveal');
  await page.screenshot({ path: `${out}/${tag}-reveal.png` });
  await page.goto(`${base}/?scenario=gc-pause-unfenced&step=95`);
  await page.waitForSelector('.end-of-run');
  await page.screenshot({ path: `${out}/${tag}-end.png`, fullPage: true });
  await page.goto(`${base}/?page=guide`);
  await page.waitForSelector('.guide-q');
  for (const i of [0, 1, 2, 3]) {
    const radios = page.locator('.guide-q').nth(i).locator('input');
    await radios.nth(i === 0 ? 0 : i === 2 ? 0 : 1).click();
    await page.waitForTimeout(100);
  }
  await page.screenshot({ path: `${out}/${tag}-guide.png`, fullPage: true });
  await page.goto(`${base}/?page=debate`);
  await page.waitForSelector('.side-card img');
  await page.screenshot({ path: `${out}/${tag}-debate.png`, fullPage: true });
  await page.close();
}
await browser.close();

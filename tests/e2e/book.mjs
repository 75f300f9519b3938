// The example book (examples/book) in Chromium: built by scripts/test (build_book in
// scripts/setup.sh) with mdbook-leaselab into target/example-book, and served by run.mjs at
// /__book/ beside dist/, whose embed.js its pages load (the book's site is the host's root).
import fs from 'node:fs';
import path from 'node:path';

// Each picture in the page: its size, caption and verdict, and whether every arrowhead it
// points at is a marker found by its id (a page's own ids cannot take them).
function pictures() {
  return [...document.querySelectorAll('lease-lab > svg, div.leaselab > svg')].map((svg) => {
    const r = svg.getBoundingClientRect();
    const refs = [...svg.querySelectorAll('[marker-end], [marker-start]')]
      .flatMap((e) => [e.getAttribute('marker-end'), e.getAttribute('marker-start')]).filter(Boolean);
    return {
      width: r.width, height: r.height,
      caption: svg.querySelector('.caption').textContent, verdict: svg.querySelector('.verdict').textContent,
      arrows: refs.length, heads: refs.every((u) => document.getElementById(u.slice(5, -1))?.tagName === 'marker'),
    };
  });
}

export async function bookTests({ test, expect, base, browser, book }) {
  await test('the example book (mdbook-leaselab): each block is its picture in a <lease-lab>, without scripts too; the Markdown build has the pictures alone', async (page) => {
    expect(fs.existsSync(path.join(book, 'html', 'gc-pause.html')), `no example book at ${book}: scripts/test builds it (build_book)`);
    await page.goto(`${base}/__book/html/gc-pause.html`);
    const attrs = await page.locator('lease-lab').evaluateAll((els) => els.map((e) => ({
      scenario: e.getAttribute('scenario'), fix: e.hasAttribute('fix'), step: e.getAttribute('step'), loading: e.getAttribute('loading'), controls: e.getAttribute('controls'),
    })));
    expect(attrs.length === 2, `two blocks, two elements: ${JSON.stringify(attrs)}`);
    // `step=key:7` is written as the step it is.
    expect(attrs[0].scenario === 'gc-pause-unfenced' && !attrs[0].fix && /^\d+$/.test(attrs[0].step) && !attrs[0].loading, JSON.stringify(attrs[0]));
    expect(attrs[1].scenario === 'gc-pause-unfenced' && attrs[1].fix && attrs[1].loading === 'visible' && attrs[1].controls === 'play', JSON.stringify(attrs[1]));
    expect(await page.locator('script[src="/embed.js"]').count() === 1, 'embed.js once for the page');
    const shown = await page.evaluate(pictures);
    expect(shown.length === 2 && shown.every((p) => p.width > 600 && p.height > 300 && p.caption === 'A GC pause outlives the lease'), JSON.stringify(shown));
    expect(shown[0].verdict === '✗ unsafe' && shown[1].verdict === '✓ safe', 'as written unsafe, with the fix safe');
    expect(shown.every((p) => p.arrows > 10 && p.heads), `every arrowhead found: ${JSON.stringify(shown)}`);
    // The block shown inside a longer fence is text, as written.
    expect((await page.textContent('pre code')).includes('```leaselab scenario=gc-pause-unfenced step=key:7'), 'the fence shown as code');

    // A reader without scripts sees the same pictures.
    const still = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 800 } });
    const bare = await still.newPage();
    for (const [chapter, n, caption] of [['redlock', 1, /^With the fix: /], ['own', 1, /^As written: A seven-second pause/]]) {
      await bare.goto(`${base}/__book/html/${chapter}.html`);
      const p = await bare.evaluate(pictures);
      expect(p.length === n && p.every((x) => x.width > 600 && x.height > 600 && caption.test(x.caption) && x.heads), `${chapter}: ${JSON.stringify(p)}`);
    }
    // A scenario of the author's own travels in the element as its src, a data: address.
    const own = await bare.getAttribute('lease-lab', 'src');
    expect(JSON.parse(Buffer.from(own.split(',')[1], 'base64').toString()).id === 'my-pause', `src: ${own.slice(0, 60)}`);
    await still.close();

    const md = fs.readFileSync(path.join(book, 'markdown', 'redlock.md'), 'utf8');
    expect(md.includes('<div class="leaselab"><svg ') && !md.includes('<lease-lab') && !md.includes('<script'), 'the Markdown renderer gets the picture alone');
  });
}

// The live run inside a <lease-lab> (through its shadow roots): its step and verdict, or null
// while it is a picture.
function liveRun(el) {
  const find = (root) => {
    for (const e of root.querySelectorAll('*')) {
      if (e.matches('[data-steps]')) return e;
      const inner = e.shadowRoot && find(e.shadowRoot);
      if (inner) return inner;
    }
    return null;
  };
  const run = el.shadowRoot && find(el.shadowRoot);
  return run && { step: run.getAttribute('data-step'), verdict: run.getAttribute('data-verdict') };
}

export async function bookLiveTest({ test, expect, base }) {
  await test('the example book: a click makes a picture the live lab at its step; loading=visible goes live when scrolled to; a JSON block runs its own scenario', async (page) => {
    const live = (i) => page.locator('lease-lab').nth(i).evaluate(liveRun);
    const until = (i, want) => page.waitForFunction(([i, fn, want]) => {
      const r = new Function(`return ${fn}`)()(document.querySelectorAll('lease-lab')[i]);
      return r && r.step === want.step && r.verdict === want.verdict;
    }, [i, liveRun.toString(), want], { timeout: 20000 });
    await page.goto(`${base}/__book/html/gc-pause.html`);
    const steps = await page.locator('lease-lab').evaluateAll((els) => els.map((e) => e.getAttribute('step')));
    expect(await live(0) === null && await live(1) === null, 'pictures until the reader asks');
    await page.locator('lease-lab').nth(0).click();
    await until(0, { step: steps[0], verdict: 'unsafe' });
    expect(await live(1) === null, 'the other block stays a picture until it is in view');
    await page.locator('lease-lab').nth(1).scrollIntoViewIfNeeded();
    await until(1, { step: steps[1], verdict: 'safe' });
    await page.goto(`${base}/__book/html/own.html`);
    const own = await page.getAttribute('lease-lab', 'step');
    await page.click('lease-lab');
    await until(0, { step: own, verdict: 'unsafe' });
  });
}

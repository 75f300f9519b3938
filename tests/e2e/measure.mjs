// The edits and the drag that `run.mjs --measure` times and `profile.mjs` profiles, so that the
// two measure the same thing.

// Edits of the TTL field (the Change tab open): for each, the time from the change event to the
// end of the render work (the next macrotask) and to the next frame.
export async function editTimes(page, edits) {
  return page.evaluate(async (n) => {
    const input = document.querySelector('#f-ttl');
    const work = [], frame = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      input.value = String(10000 + (i % 2 ? 1000 : 2000) + i);
      input.dispatchEvent(new Event('change', { bubbles: true }));
      await new Promise((r) => setTimeout(r, 0));
      work.push(performance.now() - t0);
      await new Promise((r) => requestAnimationFrame(() => r()));
      frame.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 30));
    }
    return { work, frame };
  }, edits);
}

// Frames per second while dragging the first pause: each move re-runs the scenario and repaints
// before the next frame is awaited. `started` is called once the pause is held.
export async function dragFps(page, moves, started = async () => {}) {
  const box = await page.locator('.pause rect').first().boundingBox();
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width / 2, y);
  await page.mouse.down();
  await started();
  const t0 = Date.now();
  for (let i = 1; i <= moves; i++) {
    await page.mouse.move(box.x + box.width / 2 + i * 2, y);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
  }
  const ms = Date.now() - t0;
  await page.mouse.up();
  return { moves, ms, fps: (moves * 1000) / ms };
}

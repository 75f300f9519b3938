// The edits and the drag that `run.mjs --measure` times and `profile.mjs` and `ab.mjs` profile
// and compare, so that they measure the same thing; and the server the last two share.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

// Serves a built `dist` directory on a free local port; resolves to the server and its address.
export async function serve(dir) {
  const dist = path.resolve(dir);
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json' };
  const server = http.createServer((req, res) => {
    let p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (p.endsWith('/')) p += 'index.html';
    const file = path.join(dist, p);
    if (!file.startsWith(dist) || !fs.existsSync(file)) { res.writeHead(404).end(); return; }
    res.writeHead(200, { 'content-type': types[path.extname(file)] || 'application/octet-stream' }).end(fs.readFileSync(file));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { server, base: `http://127.0.0.1:${server.address().port}` };
}

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

// Frames per second while dragging the first pause, one move a frame as a pointer delivers
// them: the button is pressed by the harness, then the page itself sends a pointermove to the
// timeline at the start of each animation frame (so no round trip to the harness sits between
// two frames). Each move re-runs the scenario and repaints; a move whose work and paint do not
// fit in a frame (16.7 ms at 60 Hz) delays the next. `started` is called once the pause is held.
// Also returned: the longest gap between two frames. Fails if the pause did not move.
export async function dragFps(page, moves, started = async () => {}) {
  const box = await page.locator('.pause rect').first().boundingBox();
  const x0 = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x0, y);
  await page.mouse.down();
  await started();
  const r = await page.evaluate(({ x0, y, moves }) => new Promise((resolve) => {
    const svg = document.querySelector('svg.timeline');
    const at = [];
    const frame = (t) => {
      at.push(t);
      if (at.length > moves) {
        let worst = 0;
        for (let i = 1; i < at.length; i++) worst = Math.max(worst, at[i] - at[i - 1]);
        resolve({ ms: at[moves] - at[0], worst });
        return;
      }
      const clientX = x0 + at.length * 2;
      svg.dispatchEvent(new PointerEvent('pointermove', { bubbles: true, clientX, clientY: y, pointerId: 1, isPrimary: true, buttons: 1 }));
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }), { x0, y, moves });
  await page.mouse.up();
  // The moves must have moved the pause (or the figure would time frames with nothing in them).
  const after = await page.locator('.pause rect').first().boundingBox();
  if (!(after.x > box.x + moves / 2)) throw new Error(`the drag did not move the pause (x ${box.x} -> ${after.x})`);
  return { moves, ms: Math.round(r.ms), worst: r.worst, fps: (moves * 1000) / r.ms };
}

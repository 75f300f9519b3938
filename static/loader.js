// Starts Lease Lab from a file rather than an inline script, so that the page runs under a
// strict Content-Security-Policy. Paths are relative, so the site works under any sub-path.
// If the app cannot be fetched or started, the page's loading line says why (the network, or a
// browser too old or without WebAssembly) instead of leaving the page blank.
// In another page's frame (`?embed=1`): the page's embed.js is told the height the run needs (it
// grows the frame to fit) and what is wrong, if the run cannot be shown as asked; and it may set
// the run's colours to the page's (`&theme=page`).
// The guide, the debate and the revision page are files of their own: the page's first script
// (static/first.js) has already sent an address of theirs there; start nothing here meanwhile.
if (/[?&]page=(guide|debate|revise)(&|$)/.test(location.search)) await new Promise(() => {});
if (parent !== window && /[?&]embed=(1|true)(&|$)/.test(location.search)) {
  // The colours asked for from the start, so that a dark page's frame does not flash white.
  const theme = location.search.match(/[?&]theme=(light|dark)(&|$)/);
  if (theme) document.documentElement.dataset.theme = theme[1];
  addEventListener('message', (e) => {
    if (e.source === parent && e.data?.leaselab === 'theme' && /^(light|dark)$/.test(e.data.theme)) document.documentElement.dataset.theme = e.data.theme;
  });
  let told = 0;
  const tell = () => {
    const boot = document.getElementById('boot');
    const problem = document.querySelector('.embed-problem') || (boot?.classList.contains('start-error') && boot);
    const height = document.documentElement.scrollHeight;
    if ((document.getElementById('app') || problem) && height !== told) parent.postMessage({ leaselab: 'size', height: (told = height), problem: problem?.textContent }, '*');
  };
  // A frame out of view is not rendered, so its ResizeObserver waits until it is scrolled to:
  // the first drawing is told at once, from the document's changes.
  const first = new MutationObserver(() => {
    tell();
    if (told) first.disconnect();
  });
  first.observe(document.body, { childList: true, subtree: true });
  new ResizeObserver(tell).observe(document.body);
}
const base = new URL('.', import.meta.url);
// The first view's picture, asked for by the page (static/first.js), shown while the program
// downloads; the program takes it away and draws the same boxes in the same places. Keys pressed
// meanwhile are kept for the program.
const picture = window.leaselabPicture;
const early = [];
if (picture) {
  picture.then((html) => {
    const boot = document.getElementById('boot');
    // Not once the program is up (it removed the loading line), nor over why it could not start.
    if (!html || !boot || boot.classList.contains('start-error')) return;
    const holder = document.createElement('div');
    holder.innerHTML = html;
    const shown = holder.firstElementChild;
    if (!shown) return;
    shown.dataset.static = '';
    shown.querySelector('#app')?.removeAttribute('id');
    // Local storage missing or blocked counts as empty, as in the program.
    try {
      if (localStorage.getItem('leaselab.intro')) shown.querySelector('.intro')?.remove();
    } catch {}
    // Another lesson chosen before the program is up: go to it.
    shown.querySelector('header select')?.addEventListener('change', (e) => { location.search = `?scenario=${encodeURIComponent(e.target.value)}`; });
    // The welcome's "Got it", for good, as the program's does.
    shown.querySelector('.intro .btn')?.addEventListener('click', (e) => {
      e.target.closest('.intro').remove();
      try {
        localStorage.setItem('leaselab.intro', 'seen');
      } catch {}
    });
    // A press of a playback button counts as its key ("Step forward (Right)", "Play (Space)").
    shown.querySelector('.controls')?.addEventListener('click', (e) => {
      const m = e.target.closest('button')?.getAttribute('aria-label')?.match(/\((Shift\+)?(\w+)\)$/);
      const key = m && ({ Right: 'ArrowRight', Left: 'ArrowLeft', Space: ' ' }[m[2]] || m[2]);
      if (key) early.push(new KeyboardEvent('keydown', { key: key.length === 1 && key !== ' ' ? key.toLowerCase() : key, shiftKey: !!m[1] }));
    });
    boot.hidden = true;
    boot.after(shown);
    // A run that opens zoomed in on its first key moment, scrolled to it as the program does.
    for (const box of shown.querySelectorAll('.timeline-scroll[data-left]')) box.scrollLeft = Number(box.dataset.left);
  });
  // The lab's keys pressed over the picture, for the program to play (src/view/lab/hooks.rs).
  window.leaselabEarlyKeys = early;
  addEventListener('keydown', (e) => {
    if (!document.querySelector('[data-static]') || e.ctrlKey || e.metaKey || e.altKey || /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)) return;
    if (/^(Arrow(Left|Right)| |Home|End)$/.test(e.key)) e.preventDefault();
    early.push(e);
  });
}
try {
  const app = await import(new URL('leaselab-app.js', base).href);
  await app.default({ module_or_path: new URL('leaselab-app_bg.wasm', base) });
  window.wasmBindings = app;
  dispatchEvent(new CustomEvent('TrunkApplicationStarted'));
} catch (e) {
  const boot = document.getElementById('boot');
  if (boot) {
    const why = e && e.message ? e.message : String(e);
    boot.hidden = false;
    boot.classList.add('start-error');
    if (typeof WebAssembly !== 'object') {
      boot.textContent = 'Lease Lab needs a browser with WebAssembly, and this one has none.';
    } else if (e instanceof WebAssembly.CompileError || e instanceof WebAssembly.LinkError) {
      boot.textContent = `Lease Lab could not start: ${why}. This browser may be too old for it; try a current one.`;
    } else {
      boot.textContent = `Lease Lab could not start: ${why}. Reload the page to try again.`;
    }
  }
  throw e;
}

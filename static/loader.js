// Starts Lease Lab from a file rather than an inline script, so that the page runs under a
// strict Content-Security-Policy. Paths are relative, so the site works under any sub-path.
// If the app cannot be fetched or started, the page's loading line says why (the network, or a
// browser too old or without WebAssembly) instead of leaving the page blank.
// In another page's frame (`?embed=1`): the page's embed.js is told the height the run needs (it
// grows the frame to fit) and what is wrong, if the run cannot be shown as asked; and it may set
// the run's colours to the page's (`&theme=page`).
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
try {
  const app = await import(new URL('leaselab-app.js', base).href);
  await app.default({ module_or_path: new URL('leaselab-app_bg.wasm', base) });
  window.wasmBindings = app;
  dispatchEvent(new CustomEvent('TrunkApplicationStarted'));
} catch (e) {
  const boot = document.getElementById('boot');
  if (boot) {
    const why = e && e.message ? e.message : String(e);
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

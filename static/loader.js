// Starts Lease Lab from a file rather than an inline script, so that the page runs under a
// strict Content-Security-Policy. Paths are relative, so the site works under any sub-path.
// If the app cannot be fetched or started, the page's loading line says why (the network, or a
// browser too old or without WebAssembly) instead of leaving the page blank.
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

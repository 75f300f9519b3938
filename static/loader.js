// Starts Lease Lab from a file rather than an inline script, so that the page runs under a
// strict Content-Security-Policy. Paths are relative, so the site works under any sub-path.
// If the app cannot be fetched or started (the network, or a browser without WebAssembly), the
// page's loading line says so instead of leaving the page blank.
const base = new URL('.', import.meta.url);
try {
  const app = await import(new URL('leaselab-app.js', base).href);
  await app.default({ module_or_path: new URL('leaselab-app_bg.wasm', base) });
  window.wasmBindings = app;
  dispatchEvent(new CustomEvent('TrunkApplicationStarted'));
} catch (e) {
  const boot = document.getElementById('boot');
  if (boot) {
    boot.classList.add('start-error');
    boot.textContent = `Lease Lab could not start: ${e && e.message ? e.message : e}. Reload the page to try again; Lease Lab needs a browser with WebAssembly.`;
  }
  throw e;
}

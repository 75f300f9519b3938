// Starts Lease Lab from a file rather than an inline script, so that the page runs under a
// strict Content-Security-Policy. Paths are relative, so the site works under any sub-path.
const base = new URL('.', import.meta.url);
const app = await import(new URL('leaselab-app.js', base).href);
await app.default({ module_or_path: new URL('leaselab-app_bg.wasm', base) });
window.wasmBindings = app;
dispatchEvent(new CustomEvent('TrunkApplicationStarted'));

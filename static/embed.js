// Lease Lab in your own page. Load this module from where Lease Lab is deployed:
//
//   <script type="module" src="https://example.org/leaselab/embed.js"></script>
//   <div data-leaselab='{"scenario": "gc-pause-fenced", "step": 84}'></div>
//
// or mount from your own script, as often as you like:
//
//   LeaseLab.mount(element, { scenario: 'gc-pause-fenced', step: 84, fix: false,
//                             controls: 'full' | 'play' | 'none', autoplay: false,
//                             compare: 'fix', theme: 'auto' | 'light' | 'dark', edit: false })
//
// `scenario` is a library id or a whole scenario object. Each run is drawn in a shadow root,
// so the page's styles and Lease Lab's do not mix.
window.LEASELAB_HOST = true;
const base = new URL('.', import.meta.url);
const ready = import(new URL('leaselab-app.js', base).href).then(async (app) => {
  await app.default({ module_or_path: new URL('leaselab-app_bg.wasm', base) });
  return app;
});
const stylesheet = new URL('style.css', base).href;
// What a mount was given instead of an element, as its message says it.
function given(v) {
  if (v === null) return 'null (did the selector find nothing?)';
  if (typeof v === 'string') return `the text "${v}"`;
  const kind = v === undefined ? 'undefined' : Object.prototype.toString.call(v).slice(8, -1);
  return v === undefined ? kind : `${/^[AEIOU]/.test(kind) ? 'an' : 'a'} ${kind}`;
}
window.LeaseLab = {
  async mount(element, options = {}) {
    // Refused before the app is asked: the promise settles, with what is wrong (a rejection
    // is a string, as the app's own are).
    if (!element || element.nodeType !== Node.ELEMENT_NODE) {
      throw `LeaseLab.mount needs an element of the page to draw the run in, such as document.querySelector('#run'), not ${given(element)}`;
    }
    const app = await ready;
    return app.mount(element, { ...options, stylesheet });
  },
};
for (const el of document.querySelectorAll('[data-leaselab]')) {
  let options = {};
  // The browser's message says where the text went wrong (a position, or a line and column).
  try { options = JSON.parse(el.dataset.leaselab || '{}'); } catch (e) { options = { error: `data-leaselab is not valid JSON: ${e.message}` }; }
  window.LeaseLab.mount(el, options).catch((e) => { el.textContent = `Lease Lab: ${e}`; });
}
window.dispatchEvent(new CustomEvent('LeaseLabReady'));

// Which picture of the first view this address shows, fetched at once: the lab of a library
// scenario (`?scenario=<id>`, with or without `&fix=1`, or the bare address of a first visit),
// rendered when the site was built by the same components the program runs (src/prerender.rs),
// at the widest of a few widths that fits this screen's timeline. static/loader.js shows it.
// Any other address (a link with changes, a scenario of one's own, a page) waits for the
// program: its run is not in the pictures, and a wrong one is never shown.
// The release build writes this script into the page itself, with its hash in the page's
// content security policy (scripts/inline.mjs), so that the picture is asked for as soon as the
// page is read rather than after a round trip for a script; the development build loads it as
// a file, without pictures.
// The guide, the debate and the revision page are files of their own (src/view/guide.rs,
// debate.rs, revise.rs): an address of theirs goes there, with the rest of its query (the
// guide's answers), before anything else is asked for (static/loader.js then starts nothing).
const leaving = location.search.match(/[?&]page=(guide|debate|revise)(&|$)/);
if (leaving) {
  const rest = new URLSearchParams(location.search);
  rest.delete('page');
  const query = rest.toString();
  location.replace(`${leaving[1]}.html${query ? `?${query}` : ''}${location.hash}`);
}
// The page's loader (static/loader.js, a module) refused or not fetched, nothing of the program
// runs to say so: the loading line says why instead. Most often the host sends .js files with a
// type other than JavaScript's (text/plain), and a browser never runs such a file as a module.
addEventListener('error', (e) => {
  const src = e.target.src;
  if (e.target.localName !== 'script' || !/loader\.js$/.test(src)) return;
  fetch(src).then((r) => {
    const type = r.headers.get('content-type') || 'no type';
    return !r.ok ? `could not be fetched (HTTP ${r.status}); reload the page to try again`
      : /javascript/i.test(type) ? 'was refused by the browser; reload the page to try again'
      : `was sent as “${type}”, not as JavaScript, so the browser does not run it: the site's host must serve .js files as text/javascript`;
  }, () => 'could not be fetched; reload the page to try again').then((why) => {
    const boot = document.getElementById('boot');
    boot.classList.add('start-error');
    boot.textContent = `Lease Lab could not start: its script loader.js ${why}.`;
  });
}, true);
// Local storage may be missing (null: storage turned off) or refuse to be read (blocked): then
// it is empty.
const stored = (key) => {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
};
window.leaselabPicture = (() => {
  if (parent !== window || leaving) return null;
  const q = new URLSearchParams(location.search);
  const keys = [...q.keys()];
  const id = q.get('scenario') || (keys.length === 0 && !stored('leaselab.last-scenario') ? 'lease-basics' : null);
  if (!id || location.hash || !/^[a-z0-9-]+$/.test(id) || keys.some((k) => k !== 'scenario' && k !== 'fix')) return null;
  const fix = q.has('fix') ? (/^(1|true)$/.test(q.get('fix')) ? '.fix' : null) : '';
  // The runs there are pictures of (the build writes their names here: src/bin/prerender.rs).
  if (fix === null || !` @@PICTURES@@ `.includes(` ${id}${fix} `)) return null;
  // The timeline's width as the style sheet lays the lab out.
  const probe = document.createElement('div');
  probe.style.cssText = 'position:absolute;visibility:hidden;overflow:scroll;width:100px;height:100px';
  // Run in the page's head, before its body exists.
  document.documentElement.append(probe);
  const bar = probe.offsetWidth - probe.clientWidth;
  probe.remove();
  const w = innerWidth - bar;
  const narrow = matchMedia('(max-width: 700px)').matches;
  const timeline = w > 980 ? w - 410 : w - 18;
  // The widths there are pictures at, each with whether it is a phone's (src/prerender.rs
  // WIDTHS: the build writes them here).
  const widths = JSON.parse('@@WIDTHS@@').filter(([, phone]) => phone === narrow).map(([x]) => x);
  const width = widths.filter((x) => x <= timeline).pop() || widths[0];
  return fetch(`first/${id}${fix}.${width}.html`).then((r) => (r.ok ? r.text() : null)).catch(() => null);
})();

// Lease Lab in your own page. Load this classic script from where Lease Lab is deployed (any
// static host: it needs no CORS headers):
//
//   <script src="https://example.org/leaselab/embed.js" async></script>
//   <div data-leaselab='{"scenario": "gc-pause-fenced", "step": 84}'></div>
//
// or mount from your own script, as often as you like:
//
//   LeaseLab.mount(element, { scenario: 'gc-pause-fenced', step: 84, fix: false,
//                             controls: 'full' | 'play' | 'none', autoplay: false,
//                             compare: 'fix', theme: 'page' | 'light' | 'dark' | 'system', edit: false })
//
// `scenario` is a library id or a whole scenario object. A page on the same site as Lease Lab
// gets each run drawn in a shadow root of the element (the page's styles and Lease Lab's do not
// mix); a page on another site gets it in a frame from Lease Lab's own site, which needs no
// headers of the host and grows to fit the run. Elements with `data-leaselab` are mounted when
// the script loads and whenever the page adds one later (each once). An iframe of Lease Lab's
// `?embed=1` on the page grows to fit its run too. Theme `page` (the default) follows the page's
// colours where the run sits, and keeps following them when the page changes them.
(() => {
  if (window.LeaseLab) return;
  // Where the app is: beside this script (a classic script knows its own element; loaded as a
  // module, as older snippets do, it is found by its address).
  const me = document.currentScript || [...document.scripts].find((s) => /\/embed\.js([?#]|$)/.test(s.src));
  const base = new URL('.', me ? me.src : location.href);
  const sameSite = base.origin === location.origin;
  const OPTIONS = { scenario: 'a library id or a scenario', step: 'a step number', fix: 'true or false', controls: ['full', 'play', 'none'],
    autoplay: 'true or false', compare: ['fix'], theme: ['page', 'light', 'dark', 'system'], edit: 'true or false' };

  // What a mount was given instead of an element, as its message says it.
  function given(v) {
    if (v === null) return 'null (did the selector find nothing?)';
    if (typeof v === 'string') return `the text "${v}"`;
    const kind = v === undefined ? 'undefined' : Object.prototype.toString.call(v).slice(8, -1);
    return v === undefined ? kind : `${/^[AEIOU]/.test(kind) ? 'an' : 'a'} ${kind}`;
  }
  // The closest of `names` to a mistyped one, if it is close (at most two letters off).
  function closest(word, names) {
    const far = (a, b) => {
      let row = [...Array(b.length + 1).keys()];
      for (let i = 1; i <= a.length; i++) {
        const next = [i];
        for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        row = next;
      }
      return row[b.length];
    };
    const best = names.map((n) => [far(String(word).toLowerCase(), n), n]).sort((a, b) => a[0] - b[0])[0];
    return best && best[0] <= 2 ? ` (did you mean “${best[1]}”?)` : '';
  }
  const quote = (v) => (typeof v === 'string' ? `“${v}”` : JSON.stringify(v));
  // Option names and choices are checked here, for both ways of drawing a run: a mistyped one is
  // refused with what to write instead, never ignored.
  function check(options) {
    if (options === null || typeof options !== 'object' || Array.isArray(options)) throw `the options must be an object such as { scenario: 'gc-pause-fenced' }, not ${given(options)}`;
    for (const [name, value] of Object.entries(options)) {
      const want = OPTIONS[name];
      if (!want) throw `there is no option “${name}”${closest(name, Object.keys(OPTIONS))}: the options are ${Object.keys(OPTIONS).join(', ')}`;
      if (Array.isArray(want) && value !== undefined && !want.includes(value) && !(name === 'theme' && value === 'auto')) {
        throw `options.${name} is ${quote(value)}${closest(value, want)}: use ${want.join(', ').replace(/, ([^,]*)$/, ' or $1')}`;
      }
      if (want === 'true or false' && value !== undefined && typeof value !== 'boolean') throw `options.${name} is ${quote(value)}: use true or false`;
    }
  }

  // The page's colours where `el` sits: the first background that is not transparent, from the
  // element up; else the page's color-scheme (with "light dark", the reader's system).
  const systemDark = matchMedia('(prefers-color-scheme: dark)');
  function pageTheme(el) {
    for (let e = el; e; e = e.parentElement || (e.getRootNode() instanceof ShadowRoot ? e.getRootNode().host : null)) {
      const c = getComputedStyle(e).backgroundColor.match(/[\d.]+/g);
      if (c && c.length >= 3 && (c.length < 4 || Number(c[3]) >= 0.5)) {
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2] < 128 ? 'dark' : 'light';
      }
    }
    const scheme = getComputedStyle(document.documentElement).colorScheme;
    return /dark/.test(scheme) && (!/light/.test(scheme) || systemDark.matches) ? 'dark' : 'light';
  }

  // Runs that follow the page's colours: element → how to tell the run a theme.
  const following = new Map();
  function follow() {
    for (const [el, run] of following) {
      if (!el.isConnected) {
        following.delete(el);
        continue;
      }
      const t = pageTheme(el);
      if (t !== run.theme) run.tell((run.theme = t));
    }
  }
  systemDark.addEventListener('change', follow);
  // A documentation site's theme switch changes an attribute of <html> or <body> (a class,
  // data-theme, a style).
  const switches = new MutationObserver(follow);
  const watchSwitches = () => {
    for (const e of [document.documentElement, document.body]) if (e) switches.observe(e, { attributes: true });
  };

  // Frames from Lease Lab's site (made here, or the Embed dialog's iframe snippet), by window.
  const frames = new Map();
  addEventListener('message', (e) => {
    if (e.origin !== base.origin || !e.data || e.data.leaselab !== 'size') return;
    const f = [...frames.keys()].find((frame) => frame.contentWindow === e.source);
    if (!f) return;
    const height = Math.ceil(Number(e.data.height));
    // It grows to fit the tallest step shown so far, and never shrinks back, so that the page
    // does not jump as the reader steps.
    if (height > 0 && height < 100000 && height > f.getBoundingClientRect().height) f.style.height = `${height}px`;
    frames.get(f)(e.data);
  });
  function adoptFrame(frame, onSize = () => {}) {
    if (frames.has(frame)) return;
    let told = false;
    frames.set(frame, (data) => {
      onSize(data);
      // `&theme=page`: the frame follows the page's colours, told once it is listening.
      if (!told && /[?&]theme=page(&|$)/.test(frame.src)) {
        told = true;
        const run = { theme: pageTheme(frame), tell: (theme) => frame.contentWindow.postMessage({ leaselab: 'theme', theme }, base.origin) };
        run.tell(run.theme);
        following.set(frame, run);
      }
    });
  }
  const ours = (frame) => {
    try {
      const u = new URL(frame.src, location.href);
      return u.origin === base.origin && u.pathname.startsWith(base.pathname) && /^(1|true)$/.test(u.searchParams.get('embed'));
    } catch { return false; }
  };

  function base64url(text) {
    let bin = '';
    for (const b of new TextEncoder().encode(text)) bin += String.fromCharCode(b);
    return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }
  // Another site's page: the run in a frame from Lease Lab's site, which fetches its own files.
  function inFrame(element, options, theme) {
    const q = new URLSearchParams({ embed: '1' });
    if (typeof options.scenario === 'string') q.set('scenario', options.scenario);
    if (options.fix) q.set('fix', '1');
    if (options.step !== undefined) q.set('step', String(options.step));
    if (options.controls && options.controls !== 'full') q.set('controls', options.controls);
    if (options.autoplay) q.set('autoplay', '1');
    if (options.compare) q.set('compare', options.compare);
    if (theme !== 'system') q.set('theme', theme);
    if (options.edit) q.set('edit', '1');
    const frame = document.createElement('iframe');
    frame.src = `${base.href}?${q}${typeof options.scenario === 'object' && options.scenario ? `#s=${base64url(JSON.stringify(options.scenario))}` : ''}`;
    frame.title = 'Lease Lab: a run of a distributed lock';
    frame.style.cssText = 'display:block;width:100%;height:160px;border:0';
    return new Promise((resolve, reject) => {
      // Lease Lab's site may be down, or the address wrong: said in the page, not only here.
      const note = document.createElement('p');
      const late = setTimeout(() => {
        const why = `Lease Lab did not answer from ${base.href} within 20 seconds (is that where it is, and does this page's Content-Security-Policy allow frames from ${base.origin}, frame-src?)`;
        element.append(Object.assign(note, { textContent: `Lease Lab: ${why}` }));
        reject(why);
      }, 20000);
      adoptFrame(frame, (data) => {
        // An answer after all (a slow network): the note goes.
        clearTimeout(late);
        note.remove();
        if (data.problem) reject(data.problem); else resolve();
      });
      element.replaceChildren(frame);
    });
  }
  // This site's page: the run drawn in the element's shadow root by the app, loaded once.
  let app = null;
  function inPage(element, options, theme) {
    window.LEASELAB_HOST = true;
    app ||= import(new URL('leaselab-app.js', base).href).then(async (m) => {
      await m.default({ module_or_path: new URL('leaselab-app_bg.wasm', base) });
      return m;
    });
    const stylesheet = new URL('style.css', base).href;
    return app.then((m) => m.mount(element, { ...options, theme: theme === 'system' ? 'auto' : theme, stylesheet }));
  }

  const taken = new WeakSet();
  window.LeaseLab = {
    async mount(element, options = {}) {
      // Refused before the app is asked: the promise settles, with what is wrong (a rejection
      // is a string, as the app's own are).
      if (!element || element.nodeType !== Node.ELEMENT_NODE) {
        throw `LeaseLab.mount needs an element of the page to draw the run in, such as document.querySelector('#run'), not ${given(element)}`;
      }
      try {
        if (taken.has(element)) throw 'this element already holds a run (or cannot hold one)';
        check(options);
      } catch (e) {
        element.textContent = `Lease Lab: ${e}`;
        throw e;
      }
      taken.add(element);
      // `auto`, the older snippets' default, is the page's colours now.
      const wanted = !options.theme || options.theme === 'auto' ? 'page' : options.theme;
      const theme = wanted === 'page' ? pageTheme(element) : wanted;
      const { theme: _, ...rest } = options;
      try {
        await (sameSite ? inPage : inFrame)(element, rest, theme);
      } catch (e) {
        // The app's own refusals are strings, already shown; a module or wasm that cannot be had
        // is an Error, said in the element too.
        if (e instanceof Error) element.textContent = `Lease Lab could not start: ${e.message}`;
        throw typeof e === 'string' ? e : `Lease Lab could not start: ${e && e.message}`;
      }
      if (wanted === 'page' && sameSite) {
        // The run's root is the first div of the shadow root (after its style sheet's link).
        following.set(element, { theme, tell: (t) => element.shadowRoot?.querySelector('div')?.setAttribute('data-theme', t) });
      } else if (wanted === 'page') {
        const frame = element.querySelector('iframe');
        following.set(element, { theme, tell: (t) => frame.contentWindow.postMessage({ leaselab: 'theme', theme: t }, base.origin) });
      }
    },
  };
  Object.defineProperty(window.LeaseLab, 'options', { value: Object.freeze(Object.keys(OPTIONS)) });

  function mountAttribute(el) {
    if (taken.has(el)) return;
    let options;
    // The browser's message says where the text went wrong (a position, or a line and column).
    try { options = JSON.parse(el.dataset.leaselab || '{}'); } catch (e) {
      taken.add(el);
      el.textContent = `Lease Lab: data-leaselab is not valid JSON: ${e.message}`;
      return;
    }
    window.LeaseLab.mount(el, options).catch(() => {});
  }
  // Every run and Lease Lab frame in `node` (or `node` itself).
  function scan(node) {
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    for (const el of [node, ...node.querySelectorAll('[data-leaselab], iframe')]) {
      if (el.hasAttribute('data-leaselab')) mountAttribute(el);
      else if (el.tagName === 'IFRAME' && ours(el)) adoptFrame(el);
    }
  }
  // A single-page documentation site adds its pages' runs long after this script ran.
  new MutationObserver((changes) => {
    for (const c of changes) {
      if (c.type === 'attributes') scan(c.target);
      else for (const n of c.addedNodes) scan(n);
    }
    watchSwitches();
  }).observe(document.documentElement, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-leaselab', 'src'] });
  scan(document.documentElement);
  watchSwitches();
  window.dispatchEvent(new CustomEvent('LeaseLabReady'));
})();

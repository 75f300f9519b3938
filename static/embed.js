// Lease Lab in your own page. Load this classic script from where Lease Lab is deployed (any
// static host: it needs no CORS headers):
//
//   <script src="https://example.org/leaselab/embed.js" async></script>
//   <div data-leaselab='{"scenario": "gc-pause-fenced", "step": 84}'></div>
//
// or as an element that shows the run's picture at once and the live run when the reader
// reaches for it (its attributes are the options, and loading, height and src: see below):
//
//   <lease-lab scenario="gc-pause-fenced" step="84" height="900"></lease-lab>
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
  // <lease-lab>: the run's picture at once, in the space the live run will take, and the live run
  // when the reader reaches for it (a click, or the focus: Tab then Enter), when it scrolls into
  // view (loading="visible") or at once (loading="eager"). The program is fetched only then, once
  // for every element of the page on Lease Lab's own site (a frame each on another site).
  //
  //   <lease-lab scenario="gc-pause-unfenced" fix compare="fix" step="12" height="420"></lease-lab>
  //   <lease-lab src="my-run.json" height="600">A picture or words for readers without scripts</lease-lab>
  const ATTRIBUTES = { scenario: 'a library id', src: 'the address of a scenario file (JSON)', fix: 'yes or no', compare: ['fix'],
    step: 'a step number', height: 'a height in pixels', controls: ['full', 'play', 'none'], autoplay: 'yes or no',
    theme: ['page', 'light', 'dark', 'system'], edit: 'yes or no', loading: ['lazy', 'visible', 'eager'] };
  // Attributes any element may have, which are the page's business.
  const GLOBAL = /^(id|class|style|title|lang|dir|hidden|tabindex|role|slot|part|exportparts|translate|inert|is|nonce|autofocus|accesskey|draggable|spellcheck|(aria|data)-.*|on.*)$/;
  // What the live run needs besides its picture (the title's bar, the zoom bar, the legend's
  // extra rows, the controls chosen and the tallest narration), when the page gives no height:
  // the most over the library's scenarios, every step, in a 760-pixel column, was 390 pixels with
  // all the controls (zookeeper-unfenced), 33 less with play only and 119 less with none; ten
  // pixels more here. The Embed dialog's snippet gives the height each run needs.
  const BESIDE_PICTURE_PX = { full: 400, play: 367, none: 281 };
  // The height held for a run of the author's own (src) when the page gives none.
  const DEFAULT_PX = 600;
  const CSS = `:host { display: block; contain: layout; }
    .box { position: relative; overflow: hidden; display: flex; flex-direction: column; border-radius: 6px; }
    .picture { flex: 0 1 auto; min-height: 0; cursor: pointer; }
    .picture img, ::slotted(svg), ::slotted(img) { display: block; width: 100%; height: auto; max-height: 100%; object-fit: contain; object-position: top left; }
    .placeholder { display: grid; place-items: center; height: 100%; margin: 0; padding: 16px; box-sizing: border-box;
      border: 1px dashed #9aa4b2; border-radius: 6px; font: 15px system-ui, sans-serif; color: inherit; }
    .band { flex: 1 0 44px; display: flex; align-items: center; justify-content: center; cursor: pointer; }
    .open { font: 600 15px system-ui, sans-serif; padding: 9px 16px; border-radius: 6px; border: 0; background: #1f6feb; color: #fff; cursor: pointer; }
    .open:focus-visible { outline: 3px solid #1f6feb; outline-offset: 3px; } [aria-busy] .open { opacity: .75; cursor: progress; }
    .live { position: absolute; inset: 0; overflow: auto; visibility: hidden; }
    .box.live-now .live { visibility: visible; } .box.live-now > :not(.live) { visibility: hidden; }
    .problem { margin: 0 0 8px; font: 14px system-ui, sans-serif; color: #c0392b; }`;
  let sheet = null;

  // The element's attributes as LeaseLab.mount's options; what is wrong with them, said.
  function readAttributes(el) {
    const options = {}, problems = [];
    const flag = (name, v) => (v === '' || v === 'true' || v === name ? true : v === 'false' ? false : null);
    for (const { name, value } of el.attributes) {
      const want = ATTRIBUTES[name];
      if (!want) {
        if (!GLOBAL.test(name)) problems.push(`there is no attribute “${name}”${closest(name, Object.keys(ATTRIBUTES))}: the attributes are ${Object.keys(ATTRIBUTES).join(', ')}`);
      } else if (Array.isArray(want)) {
        if (want.includes(value)) options[name] = value;
        else problems.push(`${name}="${value}"${closest(value, want)}: use ${want.join(', ').replace(/, ([^,]*)$/, ' or $1')}`);
      } else if (want === 'yes or no') {
        if (flag(name, value) === null) problems.push(`${name}="${value}": write ${name} alone for yes, or leave it out`);
        else options[name] = flag(name, value);
      } else if (name === 'step' || name === 'height') {
        const n = /^\d+$/.test(value.replace(/px$/, '')) ? Number(value.replace(/px$/, '')) : NaN;
        if (!(n >= (name === 'step' ? 1 : 100) && n <= 100000)) problems.push(`${name}="${value}": use ${name === 'step' ? 'a step number (1, 2, 3, …)' : 'a height in pixels, 100 or more'}`);
        else options[name] = n;
      } else if (value.trim()) options[name] = value.trim();
      else problems.push(`${name}="" is empty: give ${want}`);
    }
    if (!problems.length && !options.scenario === !options.src) {
      problems.push(options.src ? 'give scenario or src, not both' : 'give scenario (a library id such as “gc-pause-fenced”) or src (the address of a scenario file)');
    }
    return { options, problems };
  }

  class LeaseLabElement extends HTMLElement {
    connectedCallback() {
      if (this.shadowRoot) return;
      // Its children (the fallback) are all in only once the page is parsed.
      if (document.readyState === 'loading') {
        document.addEventListener('DOMContentLoaded', () => this.connectedCallback(), { once: true });
        return;
      }
      const { options, problems } = readAttributes(this);
      const { loading = 'lazy', height, src, ...mount } = options;
      const shadow = this.attachShadow({ mode: 'open', delegatesFocus: true });
      if (!sheet) (sheet = new CSSStyleSheet()).replaceSync(CSS);
      shadow.adoptedStyleSheets = [sheet];
      // The run reads left to right, whatever the page's direction: time runs that way.
      const box = Object.assign(document.createElement('div'), { className: 'box', dir: 'ltr' });
      const picture = Object.assign(document.createElement('div'), { className: 'picture' });
      const live = Object.assign(document.createElement('div'), { className: 'live' });
      const band = Object.assign(document.createElement('div'), { className: 'band' });
      const open = Object.assign(document.createElement('button'), { className: 'open', type: 'button', textContent: '▶ Open the live lab' });
      band.append(open);
      box.append(picture, band, live);
      shadow.append(box);
      const say = (text) => box.prepend(Object.assign(document.createElement('p'), { className: 'problem', role: 'alert', textContent: `Lease Lab: ${text}` }));
      // The author's fallback, if it holds a picture (mdbook-leaselab puts the SVG there), else
      // the library's picture from beside this script, else a placeholder that names the file.
      const fallback = this.querySelector('svg, img, picture');
      // What the run is called: its picture's title, else its file or its id.
      const file = src && (src.startsWith('data:') ? "the page's own scenario" : src.split(/[/?#]/).filter(Boolean).pop() || src);
      const name = fallback?.querySelector('title')?.textContent.trim() || file || `${mount.scenario || 'the run'}${mount.fix ? ' with its fix' : ''}`;
      if (fallback || problems.length) picture.append(document.createElement('slot'));
      else if (src) picture.append(Object.assign(document.createElement('p'), { className: 'placeholder', textContent: `Lease Lab: the run of ${name}` }));
      else {
        const img = Object.assign(document.createElement('img'), { alt: `Lease Lab's picture of ${name}: its timeline, legend and verdict`, decoding: 'async' });
        img.src = new URL(`pictures/${encodeURIComponent(mount.scenario)}${mount.fix ? '.fix' : ''}.svg`, base).href;
        img.addEventListener('error', () => picture.replaceChildren(Object.assign(document.createElement('p'), { className: 'placeholder',
          textContent: `Lease Lab has no picture of “${mount.scenario}” at ${base.href}pictures/ (is it a library id? leaselab list names them)` })));
        picture.append(img);
        // Its colours: the page's where it sits (and as they change), or the author's.
        const theme = mount.theme === 'page' || !mount.theme ? pageTheme(this) : mount.theme;
        const tell = (t) => { img.style.colorScheme = t === 'system' ? '' : t; };
        tell(theme);
        if (!mount.theme || mount.theme === 'page') following.set(img, { theme, tell });
      }
      open.setAttribute('aria-label', `Open the live lab: ${name}`);
      if (problems.length) {
        problems.forEach(say);
        band.remove();
        return;
      }
      // The space the live run takes, held from the start (or from when the picture is in), so
      // that the page around it does not move when it goes live.
      const hold = () => {
        // Compared with its fix: a second run as tall, with its caption and head (an author's
        // picture may be the pair already, as mdbook-leaselab's is).
        const h = picture.getBoundingClientRect().height;
        const shown = mount.compare && !fallback ? 2 * h + 100 : h;
        if (!box.style.height) box.style.height = `${height || (src && !fallback ? DEFAULT_PX : shown + BESIDE_PICTURE_PX[mount.controls || 'full'])}px`;
      };
      if (height || src || fallback) hold(); else picture.querySelector('img').addEventListener('load', hold, { once: true });
      let started = false, observer = null;
      const start = async () => {
        if (started) return;
        started = true;
        observer?.disconnect();
        hold();
        // (Its words stay as they are: the button would move, a layout shift.)
        box.setAttribute('aria-busy', 'true');
        try {
          let scenario = mount.scenario;
          if (src) {
            const r = await fetch(new URL(src, document.baseURI)).catch((e) => { throw `cannot fetch ${src}: ${e.message}`; });
            if (!r.ok) throw `cannot fetch ${src}: ${r.status} ${r.statusText}`;
            scenario = await r.json().catch((e) => { throw `${src} is not JSON: ${e.message}`; });
          }
          await window.LeaseLab.mount(live, { ...mount, scenario });
        } catch (e) {
          live.remove();
          open.remove();
          box.removeAttribute('aria-busy');
          say(typeof e === 'string' ? e : e.message);
          return;
        }
        following.delete(picture.querySelector('img'));
        // Shown once its style sheet is in and its first frames are drawn (the timeline fits
        // itself to the width it is given a frame after its first render), so that nothing in
        // it moves as it appears.
        const css = live.shadowRoot?.querySelector('link[rel=stylesheet]');
        if (css && !css.sheet) await new Promise((r) => { css.addEventListener('load', r, { once: true }); css.addEventListener('error', r, { once: true }); });
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        // Focus goes into the run if it was on the button (the reader tabbed to it, or pressed it),
        // once the run is shown (a hidden element takes no focus) and the button is not.
        const focused = shadow.activeElement === open;
        box.classList.add('live-now');
        box.removeAttribute('aria-busy');
        if (focused) (live.querySelector('iframe') || live.shadowRoot?.querySelector('#app'))?.focus({ preventScroll: true });
      };
      picture.addEventListener('click', start);
      band.addEventListener('click', start);
      open.addEventListener('focus', start);
      if (loading === 'eager') start();
      else if (loading === 'visible') {
        observer = new IntersectionObserver((seen) => seen.some((s) => s.isIntersecting) && start());
        observer.observe(this);
      }
    }
  }
  if (!customElements.get('lease-lab')) customElements.define('lease-lab', LeaseLabElement);
  window.dispatchEvent(new CustomEvent('LeaseLabReady'));
})();

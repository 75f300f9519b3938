// The few things the pages made when the site is built need a script for (guide.html,
// revise.html and debate.html: src/view/guide.rs, revise.rs, debate.rs): the Print button, each
// scenario link's whole address, which the print style sheet writes after it, and the guide's
// answers.
for (const a of document.querySelectorAll('a.demo')) a.dataset.url = a.href;
document.querySelector('[data-print]')?.addEventListener('click', () => print());

// The guide: what each set of answers shows was decided when the page was made (src/view/guide.rs,
// `paths`: for set n, whose i-th digit in base 3 is answer i, 0 not answered, 1 yes, 2 no, the
// questions on its path, `:`, the recommended approach if any, and `!` for the quorum caveat).
// Here the reader's answers are only looked up, shown, and kept: in local storage
// (`leaselab.guide`, five of null, true and false) and in the address (`?answers=yn-y`, one
// letter a question: y yes, n no, - not answered; trailing ones left out), so that a copied link
// reopens the guide with them. A link's answers are kept in local storage only once the reader
// changes one.
const form = document.querySelector('form[data-paths]');
if (form) {
  const KEY = 'leaselab.guide';
  const decide = form.dataset.paths.split(' ');
  const questions = [...form.querySelectorAll('fieldset[data-q]')];
  const escape = (c) =>
    ({ '\t': '\\t', '\r': '\\r', '\n': '\\n', '\\': '\\\\', "'": "\\'", '"': '\\"' })[c] ??
    (/^[\x20-\x7e]$/.test(c) ? c : `\\u{${c.codePointAt(0).toString(16)}}`);
  // The answers a link carries, or what is wrong with them (the text is untrusted).
  const decode = (text) => {
    const chars = [...text];
    const a = [null, null, null, null, null];
    for (const [i, c] of chars.entries()) {
      const v = /^[yY]$/.test(c) ? true : /^[nN]$/.test(c) ? false : c === '-' ? null : undefined;
      if (v === undefined) throw new Error(`answer ${i + 1} is \`${escape(c)}\`, which is none of y (yes), n (no) and - (not answered)`);
      if (i >= a.length) throw new Error(`it has ${chars.length} answers; the guide asks ${a.length} questions`);
      a[i] = v;
    }
    return a;
  };
  const encode = (a) => a.map((v) => (v === true ? 'y' : v === false ? 'n' : '-')).join('').replace(/-+$/, '');
  const stored = () => {
    try {
      const a = JSON.parse(localStorage.getItem(KEY));
      if (Array.isArray(a) && a.length === 5 && a.every((v) => v === null || v === true || v === false)) return a;
    } catch {}
    return [null, null, null, null, null];
  };
  const keep = (a) => {
    try {
      localStorage.setItem(KEY, JSON.stringify(a));
    } catch {}
  };
  // The address says the answers (a copied link reopens the guide with them). A browser may
  // refuse to change it (too often, or in some frames): the answers are shown and kept anyway.
  const say = (a) => {
    const text = encode(a);
    const url = new URL(location.href);
    if (text) url.searchParams.set('answers', text);
    else url.searchParams.delete('answers');
    try {
      history.replaceState(null, '', url);
    } catch {}
  };
  const show = (a) => {
    const n = a.reduce((sum, v, i) => sum + (v === true ? 1 : v === false ? 2 : 0) * 3 ** i, 0);
    const [path, rest] = decide[n].split(':');
    const rec = rest.replace('!', '');
    for (const q of questions) {
      const i = Number(q.dataset.q);
      const at = path.indexOf(String(i));
      q.hidden = at < 0;
      q.querySelector('[data-n]').textContent = at + 1;
      for (const input of q.querySelectorAll('input')) input.checked = at >= 0 && a[i] === (input.value === 'y');
    }
    for (const s of document.querySelectorAll('section[data-rec]')) s.hidden = s.dataset.rec !== rec;
    const caveat = document.querySelector('[data-quorum]');
    if (caveat) caveat.hidden = !rest.endsWith('!');
    for (const row of document.querySelectorAll('tr[data-approach]')) {
      const chosen = row.dataset.approach === rec;
      row.classList.toggle('chosen', chosen);
      row.querySelector('th .mini').hidden = !chosen;
    }
    form.querySelector('[data-start-over]').hidden = a.every((v) => v === null);
  };
  let answers;
  const given = new URLSearchParams(location.search).get('answers');
  try {
    answers = given === null ? stored() : decode(given);
  } catch (e) {
    answers = stored();
    const problem = document.querySelector('[data-problem]');
    problem.textContent = `This link's answers could not be read: ${e.message}. Your own answers are shown instead.`;
    problem.hidden = false;
  }
  show(answers);
  say(answers);
  const change = (a) => {
    answers = a;
    show(a);
    keep(a);
    say(a);
  };
  form.addEventListener('change', (e) => {
    const i = Number(e.target.closest('fieldset[data-q]')?.dataset.q);
    if (Number.isInteger(i)) change(answers.map((v, j) => (j === i ? e.target.value === 'y' : v)));
  });
  form.querySelector('[data-start-over]').addEventListener('click', () => change([null, null, null, null, null]));
  form.addEventListener('submit', (e) => e.preventDefault());
  // The answers are shown and the questions take clicks from here on (the end-to-end tests wait
  // for it: a click before it would be undone by the first `show`).
  form.dataset.ready = '';
}

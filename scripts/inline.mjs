// Writes a script file into the page that loads it, and the script's SHA-256 into the page's
// content security policy, so that a strict policy (no 'unsafe-inline') still lets it run; the
// file is removed. For static/first.js, which asks for the first view's picture: inline, the
// request goes out as soon as the page is read, a round trip sooner than from a file.
// Usage: node scripts/inline.mjs dist/index.html first.js   (scripts/setup.sh, build_app)
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const [page, file] = process.argv.slice(2);
if (!page || !file) {
  console.error('usage: node scripts/inline.mjs PAGE FILE');
  process.exit(2);
}
const where = path.join(path.dirname(page), file);
const js = fs.readFileSync(where, 'utf8').trim();
if (/<\/script/i.test(js)) {
  console.error(`${where}: a script that says </script> cannot be written into a page`);
  process.exit(1);
}
const hash = `'sha256-${createHash('sha256').update(js).digest('base64')}'`;
let html = fs.readFileSync(page, 'utf8');
const tag = new RegExp(`<script src=["']?(\\./)?${file.replace(/\./g, '\\.')}["']?></script>`);
if (!tag.test(html)) {
  console.error(`${page}: no <script src=${file}></script> to write the script in place of`);
  process.exit(1);
}
let signed = 0;
html = html.replace(/<meta\b[^>]*Content-Security-Policy[^>]*>/i, (meta) => meta.replace(/script-src ([^;"]*)/, (_, v) => {
  signed += 1;
  return `script-src ${v} ${hash}`;
}));
if (signed !== 1) {
  console.error(`${page}: no content security policy with a script-src to allow the script by its hash`);
  process.exit(1);
}
html = html.replace(tag, () => `<script>${js}</script>`);
fs.writeFileSync(page, html);
fs.rmSync(where);

// Sets the integrity hash of one file in a page to the file's SHA-384, as Trunk writes it, after
// the file was changed (scripts/setup.sh, minify_glue). The page may be minified: the attribute's
// value is quoted or bare. Fails if the page names the file with no integrity attribute.
// Usage: node scripts/integrity.mjs dist/index.html leaselab-app.js
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const [page, file] = process.argv.slice(2);
if (!page || !file) {
  console.error('usage: node scripts/integrity.mjs PAGE FILE');
  process.exit(2);
}
const hash = `sha384-${createHash('sha384').update(fs.readFileSync(path.join(path.dirname(page), file))).digest('base64')}`;
const html = fs.readFileSync(page, 'utf8');
let found = 0;
const out = html.replace(/<link\b[^>]*>/g, (tag) => {
  if (!new RegExp(`href=["']?(\\./)?${file.replace(/\./g, '\\.')}["' >]`).test(tag)) return tag;
  return tag.replace(/integrity=("[^"]*"|'[^']*'|[^\s>]+)/, () => {
    found += 1;
    return `integrity="${hash}"`;
  });
});
if (found !== 1) {
  console.error(`${page}: expected one <link> to ${file} with an integrity attribute, found ${found}`);
  process.exit(1);
}
fs.writeFileSync(page, out);

// Shortens the names the program and its JavaScript call each other by (scripts/setup.sh,
// minify_glue; before terser). wasm-bindgen names each of the browser's functions the program
// imports after its crate and a hash (`__wbg_scrollBy_2babac9bf9ebe1f7`) and each function the
// program exports after its whole Rust path (a closure's is 200 characters): 15 KB of names, in
// the wasm and again in the JavaScript, and their hashes do not compress. wasm-opt renames them
// all to one or two letters (--minify-imports-and-exports-and-modules, with a last -Oz pass) and
// says which became which; the same names are then written into the JavaScript, where they are
// the keys of the import object and the properties read off the instance's exports. Every name
// is checked to have been found exactly where it was expected, and the build fails if one was
// not: a name left behind would be a call that fails when the program runs.
// Usage: node scripts/names.mjs DIST   (DIST/leaselab-app_bg.wasm and DIST/leaselab-app.js)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const dist = process.argv[2];
if (!dist) {
  console.error('usage: node scripts/names.mjs DIST');
  process.exit(2);
}
const wasm = path.join(dist, 'leaselab-app_bg.wasm');
const js = path.join(dist, 'leaselab-app.js');
const out = `${wasm}.names`;
const fail = (why) => {
  fs.rmSync(out, { force: true });
  console.error(`scripts/names.mjs: ${why}`);
  process.exit(1);
};
const features = ['bulk-memory', 'nontrapping-float-to-int', 'sign-ext', 'mutable-globals', 'reference-types', 'multivalue'].map((f) => `--enable-${f}`);
const run = spawnSync('wasm-opt', ['-Oz', '--minify-imports-and-exports-and-modules', '--strip-producers', '--strip-target-features', ...features, wasm, '-o', out], {
  encoding: 'utf8',
  maxBuffer: 64 << 20,
});
if (run.status !== 0) fail(`wasm-opt failed: ${run.error ?? run.stderr}`);
const text = run.stdout;
const map = JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1));

let glue = fs.readFileSync(js, 'utf8');
const escape = (s) => s.replace(/[$.*+?^(){}[\]|\\]/g, '\\$&');
const key = (name) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name));
// Replaces `pattern`'s matches with `by`, expecting at least `least` and at most `most`.
const replace = (pattern, by, least, most, what) => {
  let n = 0;
  glue = glue.replace(pattern, (...m) => {
    n += 1;
    return typeof by === 'function' ? by(...m) : by;
  });
  if (n < least || n > most) fail(`${what}: found ${n} times in ${js}`);
};

// The one module the program imports from, and each function of it: a key of the import object.
const modules = new Set(map.imports.map(([m]) => m));
if (modules.size !== 1 || !modules.has('./leaselab-app_bg.js')) fail(`imports from ${[...modules].join(', ')}, not ./leaselab-app_bg.js alone`);
// The new module name: wasm-opt gives the one module the first short name there is.
replace(/"\.\/leaselab-app_bg\.js":/g, '"a":', 1, 1, 'the import module "./leaselab-app_bg.js"');
for (const [, old, name] of map.imports) {
  replace(new RegExp(`^(\\s*)${escape(old)}:`, 'gm'), (_, indent) => `${indent}${key(name)}:`, 1, 1, `the import ${old}`);
}
// The exports, read as `wasm.NAME`.
for (const [old, name] of map.exports) {
  const to = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? `wasm.${name}` : `wasm[${JSON.stringify(name)}]`;
  replace(new RegExp(`\\bwasm\\.${escape(old)}(?![A-Za-z0-9_$])`, 'g'), to, 0, Infinity, `the export ${old}`);
}
// Every export the JavaScript reads is one the program now has.
const exported = new Set(map.exports.map(([, name]) => name));
for (const [, name] of glue.matchAll(/\bwasm\.([A-Za-z_$][A-Za-z0-9_$]*)/g)) {
  if (!exported.has(name)) fail(`wasm.${name} is read, but the program exports no such name`);
}
for (const [, name] of glue.matchAll(/\bwasm\[("[^"]*")\]/g)) {
  if (!exported.has(JSON.parse(name))) fail(`wasm[${name}] is read, but the program exports no such name`);
}

// The module's new name is checked in the wasm itself: its first import's module.
const bytes = fs.readFileSync(out);
const leb = (at) => {
  let [value, shift] = [0, 0];
  for (;;) {
    const b = bytes[at++];
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (b < 0x80) return [value, at];
  }
};
let at = 8;
let module = null;
while (at < bytes.length && module === null) {
  const id = bytes[at];
  const [size, body] = leb(at + 1);
  if (id === 2) {
    const [, first] = leb(body);
    const [len, name] = leb(first);
    module = bytes.subarray(name, name + len).toString();
  }
  at = body + size;
}
if (module !== 'a') fail(`the program's imports are from "${module}", not "a"`);

fs.writeFileSync(js, glue);
fs.renameSync(out, wasm);
console.log(`${map.imports.length} imports and ${map.exports.length} exports renamed`);

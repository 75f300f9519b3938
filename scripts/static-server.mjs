// Serves a directory as a static host does, for scripts/serve: each file with its type (a
// .wasm as application/wasm, which WebAssembly's streaming compile asks for), a directory's
// index.html, and 404 for anything else. Only on 127.0.0.1.
// Usage: node scripts/static-server.mjs DIR PORT
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

const [dir, port] = process.argv.slice(2);
if (!dir || !port) {
  console.error('usage: node scripts/static-server.mjs DIR PORT');
  process.exit(2);
}
const root = path.resolve(dir);
const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css',
  '.wasm': 'application/wasm', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png',
};
http.createServer((req, res) => {
  const url = new URL(req.url, 'http://localhost');
  let file = path.join(root, decodeURIComponent(url.pathname));
  if (!file.startsWith(root)) {
    res.writeHead(403).end();
    return;
  }
  if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
  fs.readFile(file, (err, body) => {
    if (err) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`${url.pathname}: not found`);
      return;
    }
    res.writeHead(200, { 'content-type': types[path.extname(file)] || 'application/octet-stream' }).end(body);
  });
}).listen(Number(port), '127.0.0.1', () => console.log(`http://127.0.0.1:${port}/`));

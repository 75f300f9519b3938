# Shared by scripts/serve and scripts/test: install what is missing, and nothing else.
# Versions: trunk 0.21.14 (newer needs a newer rustc), wasm-bindgen-cli 0.2.130 (must match the
# wasm-bindgen crate pinned in Cargo.toml), binaryen's wasm-opt and playwright-core from npm
# (tests/e2e/package-lock.json), Chromium and ChromeDriver from Debian.

TRUNK_VERSION=0.21.14
WASM_BINDGEN_VERSION=0.2.130
TWIGGY_VERSION=0.8.0
MDBOOK_VERSION=0.5.4

# Each step says how long the one before it took, and `steps_took` lists them all at the end
# (the README's figures for a warm `scripts/test` come from that list).
STEP_NAME=""
STEP_START=$SECONDS
STEP_TIMES=()
step_end() {
  if [ -n "$STEP_NAME" ]; then
    STEP_TIMES+=("$(printf '%5d s  %s' $((SECONDS - STEP_START)) "$STEP_NAME")")
  fi
}
step() {
  step_end
  STEP_NAME="$(printf '%s' "$*" | head -n 1)"
  STEP_START=$SECONDS
  printf '\n== %s\n' "$*"
}
steps_took() {
  step_end
  STEP_NAME=""
  printf '\n== time taken, step by step\n'
  printf '%s\n' "${STEP_TIMES[@]}"
  printf '%5d s  in all\n' "$SECONDS"
}

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "need root to run: $*" >&2; return 1; fi
}

ensure_rust() {
  command -v cargo >/dev/null || { echo "cargo is missing: install Rust with rustup (https://rustup.rs) first" >&2; exit 1; }
  rustup component add rustfmt >/dev/null 2>&1 || true
  # The standard library's source, which the release build compiles (lean_std).
  rustup component add rust-src >/dev/null 2>&1 || true
}

ensure_wasm_target() {
  rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown || { step "installing the wasm32 target"; rustup target add wasm32-unknown-unknown; }
}

ensure_wasm_bindgen() {
  if ! wasm-bindgen --version 2>/dev/null | grep -q " $WASM_BINDGEN_VERSION"; then
    step "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION"
    cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
  fi
}

ensure_trunk() {
  if ! trunk --version 2>/dev/null | grep -q " $TRUNK_VERSION"; then
    step "installing trunk $TRUNK_VERSION (this takes several minutes once)"
    cargo install trunk --version "$TRUNK_VERSION" --locked
  fi
}

# twiggy, which scripts/bytes reads the release wasm with (a tool for finding where the bytes go;
# no test needs it).
ensure_twiggy() {
  command -v twiggy >/dev/null || { step "installing twiggy $TWIGGY_VERSION"; cargo install twiggy --version "$TWIGGY_VERSION" --locked; }
}

# The release wasm (from the last release build) as the app ships it, but with its function
# names kept: wasm-bindgen's output in $1 and $1/named.wasm, optimised as Trunk does (-Oz) with
# the names section kept (-g). For scripts/profile and scripts/bytes.
named_wasm() {
  wasm-bindgen --target web --keep-debug --out-dir "$1" "${CARGO_TARGET_DIR:-target}"/wasm32-unknown-unknown/release/leaselab-app.wasm
  wasm-opt -Oz -g --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
    --enable-reference-types --enable-multivalue "$1/leaselab-app_bg.wasm" -o "$1/named.wasm"
}

# npm packages (wasm-opt for release builds, playwright-core for end-to-end tests).
ensure_npm_tools() {
  command -v npm >/dev/null || { step "installing Node.js and npm"; as_root apt-get update -qq; as_root apt-get install -y -qq nodejs npm; }
  local dir=tests/e2e
  if [ ! -x "$dir/node_modules/.bin/wasm-opt" ] || [ ! -x "$dir/node_modules/.bin/terser" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    step "installing npm packages in $dir"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  fi
  export PATH="$PWD/$dir/node_modules/.bin:$PATH"
}

ensure_chromium() {
  if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    step "installing Chromium and ChromeDriver"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver
  fi
}

# mdBook, which the example book (examples/book) is built with: mdbook-leaselab is its preprocessor.
ensure_mdbook() {
  if ! mdbook --version 2>/dev/null | grep -q " v$MDBOOK_VERSION$"; then
    step "installing mdBook $MDBOOK_VERSION (a few minutes, once)"
    cargo install mdbook --version "$MDBOOK_VERSION" --locked
  fi
}

# Builds the example book into target/example-book (html/ and markdown/) with this checkout's
# mdbook-leaselab, Lease Lab's site being the root of the host that serves the book beside
# dist/, as the end-to-end tests do (tests/e2e/run.mjs, /__book/). Then checks that a bad block
# fails mdBook's build with its file and line.
build_book() {
  cargo build --locked -q -p mdbook-leaselab
  local target bad
  target="$(cargo metadata --format-version 1 --no-deps | node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s).target_directory))')"
  PATH="$target/debug:$PATH" MDBOOK_PREPROCESSOR__LEASELAB__SITE=/ mdbook build examples/book -d "$PWD/target/example-book"
  bad="$(mktemp -d)"
  cp -r examples/book/. "$bad"
  printf '\n```leaselab scenario=gc-pause-fencd step=key:2\n```\n' >> "$bad/src/redlock.md"
  local line
  line="$(grep -n 'gc-pause-fencd' "$bad/src/redlock.md" | cut -d: -f1)"
  if PATH="$target/debug:$PATH" mdbook build "$bad" -d "$bad/out" 2> "$bad/err"; then
    echo "a bad leaselab block did not fail the book's build" >&2; rm -rf "$bad"; return 1
  fi
  grep -qF "src/redlock.md:$line: scenario=gc-pause-fencd: there is no such scenario in the library (did you mean \`gc-pause-fenced\`?)" "$bad/err" \
    || { echo "a bad leaselab block failed the build without its file and line:" >&2; cat "$bad/err" >&2; rm -rf "$bad"; return 1; }
  rm -rf "$bad"
}

# The real servers the conformance tests compare the engine's models with.
ensure_servers() {
  # ZooKeeper is Debian's package (3.8, with a Java runtime): the conformance test runs its jar
  # (/usr/share/java/zookeeper.jar) with a configuration of its own; the package starts no service.
  if ! command -v redis-server >/dev/null || ! command -v etcd >/dev/null || ! command -v etcdctl >/dev/null \
    || ! command -v java >/dev/null || [ ! -f /usr/share/java/zookeeper.jar ]; then
    step "installing redis-server, etcd and etcdctl, and ZooKeeper (for the conformance tests)"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server etcd-server etcd-client zookeeper
  fi
}

# The release build compiles the standard library with the app, for a smaller download
# (scripts/size): a panic aborts at once, with no message formatted and no hook run (in the
# browser a panic was an abort already, "RuntimeError: unreachable"). These are unstable
# options of the stable toolchain (Rust 1.92 or later), allowed by RUSTC_BOOTSTRAP=1; they need
# the rust-src component (ensure_rust). Where they are missing, the same app is built without
# them, 27 KB larger, and scripts/size says it is over its budget. (The library's
# optimize_for_size feature would save 3.9 KB more, but made edits a few per cent slower in six
# alternating runs of tests/e2e/run.mjs --measure: its smaller sort and string code.)
lean_std() {
  local src
  src="$(rustc --print sysroot)/lib/rustlib/src/rust/library/Cargo.lock"
  if [ ! -f "$src" ]; then
    echo "warning: the rust-src component is missing (rustup component add rust-src): building without the lean standard library" >&2
    return 0
  fi
  # Also: no Debug formatting (`{:?}` writes nothing; nothing the app shows uses it) and no
  # source locations kept for panics, which abort at once anyway (-3.9 KB gzipped).
  local flags="-Zunstable-options -Cpanic=immediate-abort -Zfmt-debug=none -Zlocation-detail=none"
  # shellcheck disable=SC2086
  if ! RUSTC_BOOTSTRAP=1 rustc $flags --print cfg >/dev/null 2>&1; then
    echo "warning: $(rustc --version) has no -Cpanic=immediate-abort or -Zfmt-debug (Rust 1.92 or later has): building without the lean standard library" >&2
    return 0
  fi
  export RUSTC_BOOTSTRAP=1
  export CARGO_UNSTABLE_BUILD_STD=std,panic_abort
  export RUSTFLAGS="$flags"
  # The standard library's own dependencies, for the offline build: those of every platform
  # (its resolution needs them) and those of wasm32 (dlmalloc), which that fetch leaves out.
  cargo fetch --locked >/dev/null
  cargo fetch --locked --target wasm32-unknown-unknown >/dev/null
}

# Builds the app into dist/ (release: optimised with wasm-opt, wasm-bindgen's JavaScript
# minified), with the first view's pictures (dist/first) and those <lease-lab> shows before the
# program arrives (dist/pictures).
build_app() {
  (lean_std && trunk build --offline --release)
  minify_glue dist
  prerender dist
  node scripts/inline.mjs dist/index.html first.js
  element_pictures dist
}

# The first view's pictures (src/prerender.rs): each library scenario's lab rendered to HTML by
# the app's own components, natively, at the widths static/first.js chooses from; and the pages
# on which nothing changes (dist/revise.html, dist/debate.html). static/first.js, which asks for the picture, is then written
# into the page (scripts/inline.mjs).
prerender() {
  cargo run --quiet --locked --offline --features prerender --bin leaselab-prerender -- "$1"
}

# Every library scenario's picture for <lease-lab> (`leaselab pictures`: drawn by draw::svg as
# `leaselab svg` draws them; the debug build, which the native tests build too).
element_pictures() {
  cargo run --quiet --locked --offline -p leaselab-cli -- pictures "$1/pictures" | tail -n 1
}

# Minifies wasm-bindgen's JavaScript in $1 with terser (from npm; Trunk's own minifier cannot
# read it): 56 KB to 25 KB, 2.4 KB less gzipped. The page's integrity hash for it is updated to
# match. The page's loader too (0.25 KB less gzipped; Trunk copies it as it is); not embed.js,
# whose comments tell a documentation page's author how to use it.
minify_glue() {
  local js
  # The names the program and its JavaScript call each other by, shortened in both (scripts/names.mjs).
  node scripts/names.mjs "$1"
  node scripts/integrity.mjs "$1/index.html" leaselab-app_bg.wasm
  for js in "$1/leaselab-app.js" "$1/loader.js"; do
    terser "$js" --module --compress --mangle -o "$js.min"
    mv "$js.min" "$js"
  done
  # A classic script, which the page holds (scripts/inline.mjs): its names are the page's.
  terser "$1/first.js" --compress -o "$1/first.js.min"
  mv "$1/first.js.min" "$1/first.js"
  node scripts/integrity.mjs "$1/index.html" leaselab-app.js
}

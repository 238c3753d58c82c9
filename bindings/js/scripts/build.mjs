// npm run build: the WebAssembly module (cargo, wasm32-unknown-unknown, the size profile of
// wasm/Cargo.toml), the JavaScript and types (tsc), all in dist/; then a copy of dist/ for the
// inspector page (web/gtastream/, not committed), so that web/ can be served as it is.
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const wasmCrate = join(root, 'wasm');
const dist = join(root, 'dist');
const web = join(root, '..', '..', 'web', 'gtastream');
const run = (command, args, cwd) => execFileSync(command, args, { cwd, stdio: 'inherit' });

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

run('cargo', ['build', '--release', '--locked', '--target', 'wasm32-unknown-unknown'], wasmCrate);
const wasm = join(wasmCrate, 'target', 'wasm32-unknown-unknown', 'release', 'gtastream_wasm.wasm');
copyFileSync(wasm, join(dist, 'gtastream.wasm'));

run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', root], root);
// The licence texts go in the tarball with the code (package.json: "files").
for (const licence of ['LICENSE-MIT', 'LICENSE-APACHE']) {
  copyFileSync(join(root, '..', '..', licence), join(dist, licence));
}

rmSync(web, { recursive: true, force: true });
cpSync(dist, web, { recursive: true, filter: (path) => !path.endsWith('.d.ts') });
console.log(`gtastream.wasm: ${statSync(join(dist, 'gtastream.wasm')).size} bytes`);

// npm run build: the WebAssembly module (cargo, wasm32-unknown-unknown, the size profile of
// wasm/Cargo.toml), the JavaScript and types (tsc), all in dist/; then a copy of dist/ for the
// inspector page (web/gtastream/, not committed), and the parts of three.js its 3D view loads
// (web/vendor/three/, from the devDependency, not committed), so that web/ can be served as it
// is.
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
// three.js for the inspector's 3D view (web/viewer.js; web/index.html's import map).
const three = join(root, 'node_modules', 'three');
const vendor = join(root, '..', '..', 'web', 'vendor', 'three');
rmSync(vendor, { recursive: true, force: true });
for (const file of ['LICENSE', 'build/three.module.js', 'build/three.core.js',
  'examples/jsm/loaders/GLTFLoader.js', 'examples/jsm/controls/OrbitControls.js',
  'examples/jsm/utils/BufferGeometryUtils.js', 'examples/jsm/utils/SkeletonUtils.js']) {
  mkdirSync(dirname(join(vendor, file)), { recursive: true });
  copyFileSync(join(three, file), join(vendor, file));
}
console.log(`gtastream.wasm: ${statSync(join(dist, 'gtastream.wasm')).size} bytes`);

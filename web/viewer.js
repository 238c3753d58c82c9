// The inspector's 3D view: the glTF the library writes for the open animation file on a model
// (toGltf: a node per DFF frame beneath a root that turns RenderWare's Z-up into Y-up, one glTF
// animation per IFP animation; docs/ANIMATION.md, "glTF"), loaded and posed by three.js as any
// glTF viewer would. Each frame is drawn as a joint and a line to its parent frame: the frames
// a track of the shown animation drives in colour, the others grey. What is drawn is what
// three.js computes from the glTF; the browser test compares it with the library's sampler.
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';

const DRIVEN = new THREE.Color(0xd0402a);
const STILL = new THREE.Color(0x8a8a8a);

/** The 3D view of `glb` (a `.glb` from toGltf) in `canvas`. Without WebGL nothing is drawn, but
 * the scene is posed all the same (`drawn` says which). */
export async function createViewer(canvas, glb) {
  const data = glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength);
  const gltf = await new GLTFLoader().parseAsync(data, '');
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0xf7f7f7);
  scene.add(gltf.scene);
  // The scene's only root node turns Z-up into Y-up; positions beneath it are the model's own.
  const root = gltf.scene.children[0];
  // Frame i of the DFF is the node whose extras say so (three.js keeps extras as userData).
  const frames = [];
  gltf.scene.traverse((node) => {
    const frame = node.userData?.gtastream?.frame;
    if (Number.isInteger(frame)) frames[frame] = node;
  });
  // The bind pose, restored before another animation is shown: a clip sets only the frames
  // it has tracks for.
  const bind = frames.map((n) => [n.position.clone(), n.quaternion.clone(), n.scale.clone()]);
  const parents = frames.map((n) => frames.indexOf(n.parent));

  const joints = new THREE.InstancedMesh(new THREE.SphereGeometry(1, 10, 8),
    new THREE.MeshBasicMaterial(), frames.length);
  const lineGeometry = new THREE.BufferGeometry();
  const segments = new Float32Array(frames.length * 6);
  lineGeometry.setAttribute('position', new THREE.BufferAttribute(segments, 3));
  const lines = new THREE.LineSegments(lineGeometry,
    new THREE.LineBasicMaterial({ color: 0x30343a }));
  scene.add(lines, joints);

  let renderer = null;
  try {
    renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
  } catch {
    // No WebGL (a browser without it, or disabled): posed, not drawn.
  }
  const camera = new THREE.PerspectiveCamera(40, canvas.width / canvas.height, 0.01, 1000);
  const controls = renderer ? new OrbitControls(camera, canvas) : null;

  const mixer = new THREE.AnimationMixer(gltf.scene);
  let shown = { name: null, action: null };
  const world = new THREE.Vector3();

  /** Positions of every frame in world space (Y-up), after the pose. */
  function worldPositions() {
    gltf.scene.updateMatrixWorld(true);
    return frames.map((n) => n.getWorldPosition(new THREE.Vector3()));
  }

  /** Frames a track of `clip` drives (by node name, as the mixer binds them). */
  function driven(clip) {
    const names = new Set((clip?.tracks ?? []).map((t) =>
      THREE.PropertyBinding.parseTrackName(t.name).nodeName));
    return frames.map((n) => names.has(n.name));
  }

  let colours = driven(null);
  function draw() {
    const at = worldPositions();
    const size = Math.max(0.01, radius * 0.015);
    const matrix = new THREE.Matrix4();
    at.forEach((p, i) => {
      matrix.makeScale(size, size, size).setPosition(p);
      joints.setMatrixAt(i, matrix);
      joints.setColorAt(i, colours[i] ? DRIVEN : STILL);
      const from = parents[i] >= 0 ? at[parents[i]] : p;
      segments.set([from.x, from.y, from.z, p.x, p.y, p.z], i * 6);
    });
    joints.instanceMatrix.needsUpdate = true;
    if (joints.instanceColor) joints.instanceColor.needsUpdate = true;
    lineGeometry.attributes.position.needsUpdate = true;
    lineGeometry.computeBoundingSphere();
    renderer?.render(scene, camera);
  }

  // The camera frames the bind pose, looking at the model's front (RenderWare's +Y is glTF's −Z).
  const box = new THREE.Box3().setFromPoints(worldPositions());
  const centre = box.getCenter(new THREE.Vector3());
  const radius = Math.max(box.getSize(new THREE.Vector3()).length() / 2, 0.1);
  camera.position.copy(centre).add(new THREE.Vector3(radius * 0.9, radius * 0.5, -radius * 2.6));
  camera.lookAt(centre);
  if (controls) {
    controls.target.copy(centre);
    controls.update();
    controls.addEventListener('change', draw);
  }

  return {
    /** The names of the glTF's animations (those with a track to write). */
    animations: gltf.animations.map((a) => a.name),
    /** Whether WebGL draws the view. */
    drawn: renderer !== null,
    /** Poses the animation `name` at `time` seconds (the bind pose for an animation the glTF
     * lacks) and draws it. */
    show(name, time) {
      if (name !== shown.name) {
        mixer.stopAllAction();
        frames.forEach((n, i) => {
          n.position.copy(bind[i][0]);
          n.quaternion.copy(bind[i][1]);
          n.scale.copy(bind[i][2]);
        });
        const clip = gltf.animations.find((a) => a.name === name) ?? null;
        const action = clip ? mixer.clipAction(clip) : null;
        if (action) {
          action.setLoop(THREE.LoopOnce, 1);
          action.clampWhenFinished = true;
          action.play();
        }
        shown = { name, action };
        colours = driven(clip);
      }
      if (shown.action) {
        shown.action.time = Math.min(Math.max(time, 0), shown.action.getClip().duration);
        mixer.update(0);
      }
      draw();
    },
    /** Frame `index`'s position in the model's space (RenderWare's Z-up, as the sampler gives
     * it), as drawn. */
    framePosition(index) {
      gltf.scene.updateMatrixWorld(true);
      const p = root.worldToLocal(frames[index].getWorldPosition(world));
      return [p.x, p.y, p.z];
    },
    /** Frames of the model. */
    frames: frames.length,
    dispose() {
      controls?.dispose();
      renderer?.dispose();
    },
  };
}

// A model (DFF) in the inspector: its frame tree (each frame's name, index and bone id), the
// HAnim node table, the skin's bone count, the atomics and geometries. `model` is the document
// decode() gives of a DFF (`dump --json`); nothing of the format is read here.

/** Shows `model` in the page's model section. */
export function showModel(model) {
  const $ = (id) => document.getElementById(id);
  const frames = model.frames;
  const bones = frames.filter((f) => f.bone_id !== null).length;
  const skin = model.skin ? `skinned, ${model.skin.bones} bones in the skin` : 'not skinned';
  $('model-counts').textContent = `RenderWare ${model.rw_version}: ${frames.length} frames, `
    + `${bones} with a bone id, HAnim table of ${model.hanim?.nodes.length ?? 0} nodes, ${skin}, `
    + `${model.atomics.length} atomics, ${model.geometries.length} geometries`;
  const section = $('model-section');
  section.dataset.frames = String(frames.length);
  section.dataset.hanim = String(model.hanim?.nodes.length ?? 0);
  section.dataset.skinBones = String(model.skin?.bones ?? 0);
  section.dataset.atomics = String(model.atomics.length);
  section.dataset.geometries = String(model.geometries.length);

  // The tree: each frame under its parent (a parent that is not an earlier frame: a root).
  const items = frames.map((f) => {
    const li = document.createElement('li');
    li.dataset.index = String(f.index);
    li.dataset.boneId = f.bone_id === null ? '' : String(f.bone_id);
    const label = document.createElement('span');
    label.className = 'frame';
    const hangs = model.atomics.filter((a) => a.frame === f.index).length;
    label.textContent = `${f.index}: ${f.name === null ? '(no name)' : JSON.stringify(f.name)}`
      + (f.bone_id === null ? '' : `  bone ${f.bone_id}`)
      + (hangs ? `  ${hangs} atomic${hangs > 1 ? 's' : ''}` : '');
    li.appendChild(label);
    return li;
  });
  const tree = $('frame-tree');
  tree.replaceChildren();
  frames.forEach((f, i) => {
    const parent = f.parent >= 0 && f.parent < i ? items[f.parent] : null;
    if (!parent) {
      tree.appendChild(items[i]);
      return;
    }
    let list = parent.querySelector(':scope > ul');
    if (!list) {
      list = document.createElement('ul');
      parent.appendChild(list);
    }
    list.appendChild(items[i]);
  });

  // The HAnim node table in table order, with the frame each id names.
  const body = $('hanim-nodes').tBodies[0];
  body.replaceChildren();
  (model.hanim?.nodes ?? []).forEach((n, position) => {
    const frame = frames.find((f) => f.bone_id === n.id);
    const flags = [n.flags & 2 ? 'PUSH' : '', n.flags & 1 ? 'POP' : ''].filter(Boolean).join(' ');
    const row = document.createElement('tr');
    for (const text of [position, n.id, n.index, flags || '–',
      frame ? `${frame.index} ${frame.name ?? ''}` : '–']) {
      const td = document.createElement('td');
      td.textContent = String(text);
      row.appendChild(td);
    }
    body.appendChild(row);
  });
  $('hanim-section').hidden = !model.hanim;
  section.hidden = false;
}

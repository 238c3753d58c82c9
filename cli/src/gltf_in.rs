//! `gtastream convert --to anp3|anp2|anpk IN.gltf|IN.glb OUT.ifp`: a glTF's animations
//! written as an animation package (`gtastream::gltf::import`, docs/ANIMATION.md "From glTF").
//! The output is checked before it is written: an error finding refuses it (OUT is left as
//! it was).

use std::io::Write;
use std::path::{Component, Path};

use gtastream::check::Games;
use gtastream::gltf::import::{import, read, BoneMap, ImportOptions, MAX_FILE};
use gtastream::rig::read_skeleton;
use gtastream::Format;

use crate::failed;
use crate::output::{Destination, Pending};

/// Whether `input` names a glTF file (by its extension, in any case).
pub fn is_gltf(input: &str) -> bool {
    let lower = input.to_ascii_lowercase();
    lower.ends_with(".gltf") || lower.ends_with(".glb")
}

/// What `convert` from glTF needs besides its input and output.
pub struct Request<'a> {
    pub to: Format,
    pub skeleton: Option<&'a str>,
    pub animations: &'a [String],
    pub block: Option<&'a str>,
    pub bone_map: Option<&'a Path>,
    pub resample: Option<u32>,
    pub quantize: bool,
    pub games: Option<Games>,
    pub report: bool,
}

/// Reads a buffer the glTF names by a relative URI, from the glTF's folder: no absolute
/// path, no `..`, no other scheme, at most [`MAX_FILE`] bytes.
fn load_beside(folder: &Path, uri: &str) -> Result<Vec<u8>, String> {
    let relative = Path::new(uri);
    let plain = relative
        .components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    if uri.contains("://") || !plain {
        return Err(
            "only a file beside the glTF is read (no absolute path, `..` or scheme)".into(),
        );
    }
    let path = folder.join(relative);
    let size = std::fs::metadata(&path).map_err(|e| e.to_string())?.len();
    if size > MAX_FILE as u64 {
        return Err(format!("{size} bytes, above the {MAX_FILE} read"));
    }
    std::fs::read(&path).map_err(|e| e.to_string())
}

/// Converts the glTF `input` to `output`; returns the lines for stderr (notes, the checker's
/// findings, the report).
pub fn run(input: &str, output: &Path, request: Request<'_>) -> Result<String, String> {
    let bytes = crate::target::read_bytes(input).map_err(|e| failed(input, e))?;
    let folder = Path::new(input)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let gltf = read(&bytes, &mut |uri| load_beside(&folder, uri)).map_err(|e| failed(input, e))?;
    let skeleton = match request.skeleton {
        Some(model) => {
            let data = crate::target::read_bytes(model).map_err(|e| failed(model, e))?;
            Some(Box::new(
                read_skeleton(&data).map_err(|e| failed(model, e))?,
            ))
        }
        None => None,
    };
    let bone_map = match request.bone_map {
        Some(path) => {
            let shown = path.display().to_string();
            let text = std::fs::read_to_string(path).map_err(|e| failed(&shown, e))?;
            Some(BoneMap::parse(&text).map_err(|e| failed(&shown, e))?)
        }
        None => None,
    };
    // The block is named by --block, else by OUT's stem (the name the games look it up by).
    let stem = output
        .file_stem()
        .and_then(|s| s.to_str())
        .filter(|s| *s != "-");
    let Some(block) = request.block.or(stem) else {
        return Err("writing to standard output: name the block with --block".into());
    };
    let mut options = ImportOptions::new(request.to, block);
    options.animations = request.animations.to_vec();
    options.skeleton = skeleton.as_deref();
    options.bone_map = bone_map.as_ref();
    options.resample = request.resample;
    options.quantize = request.quantize;
    options.games = request.games;
    options.report = request.report;
    options.file_name = output
        .file_name()
        .and_then(|n| n.to_str())
        .map(str::to_owned);
    let imported = import(&gltf, &options).map_err(|e| failed(input, e))?;
    let (findings, _) = crate::convert::check_output(&imported.bytes, output, request.games)?;
    match Destination::of(output) {
        Destination::Stdout => {
            let mut stdout = std::io::stdout().lock();
            stdout
                .write_all(&imported.bytes)
                .and_then(|()| stdout.flush())
                .map_err(crate::write_error)?;
        }
        Destination::File(path) => {
            let (pending, mut file) = Pending::create(path)?;
            file.write_all(&imported.bytes)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            pending.commit(file)?;
        }
    }
    let mut lines = String::new();
    for note in &imported.notes {
        lines += &format!("gtastream: {input}: {note}\n");
    }
    lines += &findings;
    for row in &imported.report {
        lines += &format!(
            "{}: animation {:?}: bone {:?} (node {:?}): largest difference {:.4}° and {:.5} m\n",
            output.display(),
            row.animation,
            row.bone,
            row.node,
            row.angle,
            row.position
        );
    }
    lines += &format!(
        "{}: {} animations written ({})\n",
        output.display(),
        imported.package.animations.len(),
        request.to.name()
    );
    Ok(lines)
}

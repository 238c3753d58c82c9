//! `gtastream convert --to gltf|glb --skeleton MODEL.dff IN OUT`: an animation file's
//! animations as glTF 2.0 on a model's skeleton (`gtastream::gltf::export`,
//! docs/ANIMATION.md "glTF"). The tracks that bind to nothing are lines on stderr.

use std::io::Write;
use std::path::Path;

use gtastream::gltf::export::{export, ExportError, Options};
use gtastream::rig::{read_skeleton, Host};

use crate::failed;
use crate::output::{Destination, Pending};

/// `.gltf` (JSON, the buffer embedded) or `.glb` (binary).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Container {
    Gltf,
    Glb,
}

/// What `convert --to gltf|glb` needs besides its input and output.
pub struct Request<'a> {
    pub container: Container,
    pub skeleton: &'a str,
    pub animations: &'a [String],
    pub host: Option<Host>,
}

/// Writes `input`'s animations on the model as glTF to `output`; returns the lines to print
/// on stderr (the tracks not written, the animations left out).
pub fn run(input: &str, output: &Path, request: Request<'_>) -> Result<String, String> {
    let model =
        crate::target::read_bytes(request.skeleton).map_err(|e| failed(request.skeleton, e))?;
    let skeleton = Box::new(read_skeleton(&model).map_err(|e| failed(request.skeleton, e))?);
    let data = crate::target::read_bytes(input).map_err(|e| failed(input, e))?;
    let options = Options {
        host: request.host,
        animations: request.animations.to_vec(),
    };
    let export = export(&data, &skeleton, &options).map_err(|e| match e {
        ExportError::Decode(_) => {
            // The decoding error with where it happened and what came before it.
            let mut decoder = gtastream::Decoder::new();
            match gtastream::context::decode_slice(&mut decoder, &data, &mut crate::target::Ignore)
            {
                Err(failure) => failed(input, failure),
                Ok(()) => failed(input, e),
            }
        }
        other => failed(input, other),
    })?;
    let bytes = match request.container {
        Container::Gltf => export.to_gltf(),
        Container::Glb => export.to_glb(),
    };
    match Destination::of(output) {
        Destination::Stdout => std::io::stdout()
            .lock()
            .write_all(&bytes)
            .map_err(|e| format!("-: {e}"))?,
        Destination::File(path) => {
            let (pending, mut file) = Pending::create(path)?;
            file.write_all(&bytes)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            pending.commit(file)?;
        }
    }
    let mut lines = String::new();
    for u in &export.unwritten {
        let name = u.name.as_deref().unwrap_or("-");
        let id = u.bone_id.map_or("-".to_owned(), |id| id.to_string());
        lines += &format!(
            "gtastream: {input}: animation {:?}: track {} ({name:?}, bone id {id}) not written: {}\n",
            u.animation, u.track, u.reason
        );
    }
    for name in &export.empty {
        lines += &format!("gtastream: {input}: animation {name:?}: no track to write, left out\n");
    }
    lines += &format!(
        "gtastream: {}: {} animations written, {} tracks not written\n",
        output.display(),
        export.animations,
        export.unwritten.len()
    );
    Ok(lines)
}

//! `gtastream sample`: the pose of one animation at a time, as the games compute it
//! (`gtastream::Sampler`; the JSON is the library's, `gtastream::json::write_pose`), and with
//! `--skeleton MODEL.dff` on a model: each bone's frame and every frame in model space
//! (`gtastream::json::write_pose_document_on`).

use std::io::{self, Write};

use gtastream::json::{self, JsonError};
use gtastream::rig::{
    bind_all, default_host, pose_animation, read_skeleton, AnimationTracks, Binding, Host,
    Skeleton, MAX_FRAMES, MAX_TRACKS,
};
use gtastream::Sampler;

use crate::{failed, write_error};

/// Most bones of one sampled animation (the sampler's fixed capacity).
const BONES: usize = 256;

/// The model `sample --skeleton` poses, and the game whose binding applies (`None`: the
/// library's default, `gtastream::rig::default_host`).
pub struct OnModel<'a> {
    pub model: &'a str,
    pub host: Option<Host>,
}

/// Prints the pose of `animation` in `file` (a path, `ARCHIVE:ENTRY`, or `-`) at `time`
/// seconds, on a model when `on` says which.
pub fn run(
    file: &str,
    animation: &str,
    time: f32,
    looped: bool,
    as_json: bool,
    on: Option<OnModel<'_>>,
) -> Result<(), String> {
    let data = crate::target::read_bytes(file).map_err(|e| failed(file, e))?;
    let skeleton = match &on {
        Some(on) => {
            let bytes = crate::target::read_bytes(on.model).map_err(|e| failed(on.model, e))?;
            Some(Box::new(
                read_skeleton(&bytes).map_err(|e| failed(on.model, e))?,
            ))
        }
        None => None,
    };
    let sampler = Sampler::<BONES>::new(&data, animation.as_bytes()).map_err(|e| {
        if e.kind == gtastream::ErrorKind::NotFound {
            return failed(file, format!("no animation named {animation:?}"));
        }
        // A file that does not decode: its error with where it happened and what came
        // before it (the sampler gives the error alone).
        let mut decoder = gtastream::Decoder::new();
        match gtastream::context::decode_slice(&mut decoder, &data, &mut crate::target::Ignore) {
            Err(failure) => failed(file, failure),
            Ok(()) => failed(file, e),
        }
    })?;
    let mut text = String::new();
    if let (Some(skeleton), Some(on)) = (&skeleton, &on) {
        let tracks = AnimationTracks::find(&data, Some(animation.as_bytes()), 0)
            .map_err(|e| failed(file, e))?;
        let host = on
            .host
            .unwrap_or_else(|| default_host(tracks.format(), skeleton));
        if as_json {
            match json::write_pose_on(&mut text, &sampler, &tracks, skeleton, host, time, looped) {
                Ok(()) => {}
                Err(JsonError::Decode(e)) => return Err(failed(file, e)),
                Err(JsonError::Write) => unreachable!("a String accepts all text"),
            }
        } else {
            text = table(&sampler, time, looped).map_err(|e| failed(file, e))?;
            text.push_str(
                &frames_table(&sampler, &tracks, skeleton, host, time, looped)
                    .map_err(|e| failed(file, e))?,
            );
        }
    } else if as_json {
        match json::write_pose(&mut text, &sampler, time, looped) {
            Ok(()) => {}
            Err(JsonError::Decode(e)) => return Err(sample_failed(file, time, e)),
            Err(JsonError::Write) => unreachable!("a String accepts all text"),
        }
    } else {
        text = table(&sampler, time, looped).map_err(|e| sample_failed(file, time, e))?;
    }
    io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .map_err(write_error)
}

/// A sampling error: a time outside the domain names the option the user typed (the core's
/// error has no place in the file to name); any other names the file.
fn sample_failed(file: &str, time: f32, error: gtastream::Error) -> String {
    if error.kind == gtastream::ErrorKind::BadTime {
        return format!(
            "--time {time}: not a time to sample: a finite number of seconds from 0 \
             (--loop wraps a time past the animation's length)"
        );
    }
    failed(file, error)
}

/// The pose as a table: one bone a line.
fn table(
    sampler: &Sampler<'_, BONES>,
    time: f32,
    looped: bool,
) -> Result<String, gtastream::Error> {
    use std::fmt::Write as _;
    let mut out = String::new();
    let name = crate::names::latin1(sampler.name());
    let _ = writeln!(
        out,
        "{name:?} at {time} s{} (length {:.3} s, {} bones with keys)",
        if looped { ", looped" } else { "" },
        sampler.length(),
        sampler.bone_count()
    );
    let _ = writeln!(
        out,
        "  {:<20} {:>4}  {:>40}  translation",
        "bone", "id", "rotation (x, y, z, w)"
    );
    sampler.sample(time, looped, |pose| {
        let name = pose.name.map_or("-".into(), crate::names::latin1);
        let id = pose.bone_id.map_or("-".into(), |id| id.to_string());
        let [x, y, z, w] = pose.rotation;
        let rotation = format!("{x:9.5} {y:9.5} {z:9.5} {w:9.5}");
        let translation = pose
            .translation
            .map_or("-".into(), |[x, y, z]| format!("{x:9.5} {y:9.5} {z:9.5}"));
        let _ = writeln!(out, "  {name:<20} {id:>4}  {rotation:>40}  {translation}");
    })?;
    Ok(out)
}

/// On a model: which frame each track drives (or why none), then every frame's model-space
/// position (the matrix's translation) and the frame's name, one a line.
fn frames_table(
    sampler: &Sampler<'_, BONES>,
    tracks: &AnimationTracks,
    skeleton: &Skeleton,
    host: Host,
    time: f32,
    looped: bool,
) -> Result<String, gtastream::Error> {
    use std::fmt::Write as _;
    let mut out = String::new();
    let frame_name = |f: usize| {
        skeleton.frames()[f]
            .name
            .as_ref()
            .map_or("-".into(), |n| crate::names::latin1(n.as_bytes()))
    };
    let _ = writeln!(out, "bound as {} binds:", host.name());
    bind_all(skeleton, host, tracks.tracks().take(MAX_TRACKS), |t, b| {
        let name = t.name.map_or("-".into(), crate::names::latin1);
        let what = match b {
            Binding::Drives(f) => format!("frame {f} {:?}", frame_name(usize::from(f))),
            Binding::Overridden { frame, by } => {
                format!("frame {frame}, overridden by track {by}")
            }
            Binding::Unbound(reason) => format!("nothing ({})", reason.name()),
        };
        let _ = writeln!(out, "  track {:<3} {name:<20} -> {what}", t.index);
    });
    let mut matrices = vec![[0.0f32; 16]; skeleton.frames().len().min(MAX_FRAMES)];
    let n = pose_animation(
        skeleton,
        host,
        tracks,
        sampler,
        time,
        looped,
        &mut matrices,
        |_, _| {},
    )?;
    let _ = writeln!(
        out,
        "frames in model space ({n}):\n  {:>5} {:>6}  {:<24} position (x, y, z)",
        "frame", "parent", "name"
    );
    for (i, m) in matrices.iter().take(n).enumerate() {
        let parent = skeleton.parent_of(i).map_or("-".into(), |p| p.to_string());
        let _ = writeln!(
            out,
            "  {i:>5} {parent:>6}  {:<24} {:9.5} {:9.5} {:9.5}",
            frame_name(i),
            m[12],
            m[13],
            m[14]
        );
    }
    Ok(out)
}

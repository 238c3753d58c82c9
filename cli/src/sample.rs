//! `gtastream sample`: the pose of one animation at a time, as the games compute it
//! (`gtastream::Sampler`; the JSON is the library's, `gtastream::json::write_pose`).

use std::io::{self, Read, Write};

use gtastream::json::{self, JsonError};
use gtastream::Sampler;

use crate::{failed, write_error};

/// Most bones of one sampled animation (the sampler's fixed capacity).
const BONES: usize = 256;

/// Prints the pose of `animation` in `file` (a path, or `-`) at `time` seconds.
pub fn run(
    file: &str,
    animation: &str,
    time: f32,
    looped: bool,
    as_json: bool,
) -> Result<(), String> {
    let data = if file == "-" {
        let mut data = Vec::new();
        io::stdin()
            .lock()
            .read_to_end(&mut data)
            .map_err(|e| failed("-", e))?;
        data
    } else {
        std::fs::read(file).map_err(|e| failed(file, e))?
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
    if as_json {
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

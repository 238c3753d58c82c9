//! `gtastream info`: a short summary, decoded with the streaming decoder in 64 KiB pieces.

use std::fmt::Write as _;
use std::io::Read;

use gtastream::{
    AnimationInfo, BoneInfo, Decoder, FileInfo, Flow, Format, FrameType, Keyframes, Status,
    Visitor, Warning,
};

use crate::names;

/// How much of the file is read at a time: memory stays bounded whatever the file's size.
pub const CHUNK: usize = 64 * 1024;

/// Why `info` failed.
pub enum Failure {
    Read(std::io::Error),
    Decode(gtastream::Error),
}

/// Counts what the decoder reports.
#[derive(Default)]
pub struct Summary {
    format: Option<Format>,
    name: Option<String>,
    animations: u64,
    bones: u64,
    keyframes: u64,
    frame_types: Vec<FrameType>,
    warnings: Vec<Warning>,
    /// Per animation, when asked for.
    list: Option<Vec<AnimationSummary>>,
}

struct AnimationSummary {
    name: String,
    bones: u64,
    keyframes: u64,
    /// Latest keyframe time, in seconds.
    duration: f32,
}

impl Summary {
    pub fn new(list_animations: bool) -> Self {
        Summary {
            list: list_animations.then(Vec::new),
            ..Summary::default()
        }
    }

    fn current(&mut self) -> Option<&mut AnimationSummary> {
        self.list.as_mut()?.last_mut()
    }
}

impl Visitor for Summary {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        self.format = Some(info.format);
        self.name = info.name.map(names::latin1);
        Flow::Continue
    }

    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        self.animations += 1;
        if let Some(list) = self.list.as_mut() {
            list.push(AnimationSummary {
                name: names::latin1(info.name),
                bones: 0,
                keyframes: 0,
                duration: 0.0,
            });
        }
        Flow::Continue
    }

    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        self.bones += 1;
        if !self.frame_types.contains(&info.frame_type) {
            self.frame_types.push(info.frame_type);
        }
        if let Some(animation) = self.current() {
            animation.bones += 1;
        }
        Flow::Continue
    }

    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        self.keyframes += frames.len() as u64;
        if let Some(animation) = self.current() {
            animation.keyframes += frames.len() as u64;
            for frame in frames.iter() {
                animation.duration = animation.duration.max(frame.time);
            }
        }
        Flow::Continue
    }

    fn warning(&mut self, warning: Warning) -> Flow {
        self.warnings.push(warning);
        Flow::Continue
    }
}

/// Decodes `reader` piece by piece into `summary`.
pub fn decode(mut reader: impl Read, summary: &mut Summary) -> Result<(), Failure> {
    let mut decoder = Decoder::new();
    let mut buffer = vec![0u8; CHUNK];
    loop {
        let read = match reader.read(&mut buffer) {
            Ok(0) => break,
            Ok(read) => read,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(Failure::Read(error)),
        };
        let mut rest = &buffer[..read];
        while !rest.is_empty() {
            let progress = decoder.feed(rest, summary).map_err(Failure::Decode)?;
            // Only a pause leaves bytes unconsumed (the summary never pauses): feeding the rest
            // resumes exactly there.
            debug_assert!(progress.status == Status::Paused || progress.consumed == rest.len());
            rest = &rest[progress.consumed..];
        }
    }
    decoder.finish(summary).map_err(Failure::Decode)
}

/// The summary as text, for `path`.
pub fn report(path: &str, summary: &Summary) -> String {
    let mut out = String::new();
    let format = summary.format.map_or("?", Format::name);
    let name = summary
        .name
        .as_deref()
        .map_or("(none)".into(), |n| format!("{n:?}"));
    let frame_types = if summary.frame_types.is_empty() {
        "none".into()
    } else {
        summary
            .frame_types
            .iter()
            .map(|&t| names::frame_type_label(t))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = writeln!(out, "{path}");
    let _ = writeln!(out, "  format:      {format}");
    let _ = writeln!(out, "  package:     {name}");
    let _ = writeln!(out, "  animations:  {}", summary.animations);
    let _ = writeln!(out, "  bones:       {}", summary.bones);
    let _ = writeln!(out, "  keyframes:   {}", summary.keyframes);
    let _ = writeln!(out, "  frame types: {frame_types}");
    if summary.warnings.is_empty() {
        let _ = writeln!(out, "  warnings:    none");
    } else {
        let _ = writeln!(out, "  warnings:    {}", summary.warnings.len());
        for warning in &summary.warnings {
            let kind = names::warning_kind(warning.kind);
            let _ = writeln!(out, "    {warning} ({kind})");
        }
    }
    if let Some(list) = &summary.list {
        let _ = writeln!(out, "  per animation:");
        let width = list
            .iter()
            .map(|a| a.name.chars().count())
            .max()
            .unwrap_or(0);
        for animation in list {
            let _ = writeln!(
                out,
                "    {:<width$}  {:>3} bones  {:>6} keyframes  {:>8.3} s",
                format!("{:?}", animation.name),
                animation.bones,
                animation.keyframes,
                animation.duration,
                width = width + 2,
            );
        }
    }
    out
}

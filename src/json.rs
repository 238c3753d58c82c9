//! The JSON document of a file (feature `alloc`): what `gtastream dump --json` prints and the
//! bindings' `decode()` return, written by one piece of code so that every front end gives the
//! same structure (docs/FORMATS.md §10 describes it).
//!
//! The document is written as the decoder reports the file, never built in memory: a file is
//! decoded once per part of the document (its warnings come first, and placement files list
//! instances, cars and other lines apart, while the events interleave them, then the lines as
//! stored in file order). The first pass also proves that the file decodes, so nothing is
//! written for a file that fails.

use alloc::vec::Vec;
use core::fmt::{self, Write};

use crate::context::{Context, Failure};
use crate::record::{RecordKind, Value};
use crate::{
    AnimationInfo, AnimationSummary, BoneInfo, Error, FileInfo, Flow, Format, Keyframes, Options,
    Record, Summarizer, Unit, Visitor, Warning,
};

/// Why a document could not be written: the file failed to decode (the caller's error type:
/// [`Error`] from memory, a read error from a reader), or the output refused text.
#[derive(Debug)]
pub enum JsonError<E> {
    /// Decoding failed; nothing was written.
    Decode(E),
    /// The output failed (`fmt::Error`); what was written so far stays.
    Write,
}

/// The JSON document of a file held in memory, ending with a newline; a file that fails gives
/// its error with where it happened and what was decoded before it.
#[allow(clippy::result_large_err)] // as the core returns it (crate::context)
pub fn to_string(data: &[u8], options: Options) -> Result<alloc::string::String, Failure> {
    let mut out = alloc::string::String::new();
    let decode = |pass: &mut Pass<'_, alloc::string::String>| {
        crate::context::decode_slice(&mut crate::Decoder::with_options(options), data, pass)
    };
    match write(&mut out, decode) {
        Ok(()) => Ok(out),
        Err(JsonError::Decode(error)) => Err(error),
        // Writing to a String does not fail.
        Err(JsonError::Write) => unreachable!("a String accepts all text"),
    }
}

/// Writes the JSON document of a file to `out`, ending with a newline. `decode` runs the whole
/// file through the visitor it is given, from its first byte; it is called once per pass (two
/// for an animation file, three for an ANLF; four for a binary IPL of instances then cars, five
/// for other placement files), so it must give the same file each time.
pub fn write<W, E, F>(out: &mut W, mut decode: F) -> Result<(), JsonError<E>>
where
    W: Write,
    F: FnMut(&mut Pass<'_, W>) -> Result<(), E>,
{
    // The head pass writes nothing: a file that fails leaves the output untouched.
    let mut head = Pass::new(None, Part::Head);
    decode(&mut head).map_err(JsonError::Decode)?;
    let Pass {
        format,
        name,
        raw,
        trailing,
        warnings,
        container_size,
        cars_first,
        model,
        ..
    } = head;
    // A model has its own document (crate::model).
    if let Some(model) = model {
        return model.model.write_json(out).map_err(|_| JsonError::Write);
    }

    let parts: &[(&str, Part)] = if format == Some(Format::Ide) {
        &[("objects", Part::Objects), ("section_lines", Part::Lines)]
    } else if format.is_some_and(|f| !f.is_animation()) {
        &[
            ("instances", Part::Instances),
            ("cars", Part::Cars),
            ("section_lines", Part::Lines),
        ]
    } else {
        &[("animations", Part::Animations)]
    };
    let text = |r: fmt::Result| r.map_err(|_| JsonError::Write);
    text(out.write_str("{\n  \"format\": "))?;
    text(match format {
        Some(format) => string(out, format.name().as_bytes()),
        None => out.write_str("null"),
    })?;
    text(out.write_str(",\n  \"name\": "))?;
    text(opt_string(out, name.as_deref()))?;
    text(out.write_str(",\n  \"warnings\": ["))?;
    for (i, warning) in warnings.iter().enumerate() {
        text(out.write_str(if i == 0 { "\n    " } else { ",\n    " }))?;
        text(write_warning(out, warning))?;
    }
    text(close(out, !warnings.is_empty(), 2, ']'))?;
    for &(key, part) in parts {
        text(write!(out, ",\n  \"{key}\": ["))?;
        array(out, part, &mut decode)?;
    }
    // The units as stored come last, out of a reader's way.
    text(out.write_str(",\n  \"raw\": "))?;
    text(hex(out, &raw))?;
    text(out.write_str(",\n  \"trailing\": "))?;
    text(hex(out, &trailing))?;
    match format {
        // A binary IPL's records in the lists' order (instances, then cars) are the file.
        Some(Format::IplBinary) if !cars_first => text(out.write_str(",\n  \"stored\": null"))?,
        Some(format) if !format.is_animation() => {
            text(out.write_str(",\n  \"stored\": ["))?;
            array(out, Part::Stored, &mut decode)?;
        }
        _ => {
            text(out.write_str(",\n  \"blocks\": "))?;
            if container_size.is_some() {
                text(out.write_char('['))?;
                array(out, Part::Blocks, &mut decode)?;
            } else {
                text(out.write_str("null"))?;
            }
            text(out.write_str(",\n  \"container_size\": "))?;
            text(opt_number(out, container_size))?;
        }
    }
    text(out.write_str("\n}\n"))
}

/// Writes the items of the array `part` by a pass of `decode`, and closes the array.
fn array<W, E, F>(out: &mut W, part: Part, decode: &mut F) -> Result<(), JsonError<E>>
where
    W: Write,
    F: FnMut(&mut Pass<'_, W>) -> Result<(), E>,
{
    let mut pass = Pass::new(Some(&mut *out), part);
    let decoded = decode(&mut pass);
    let (failed, open) = (pass.failed, pass.open);
    if failed {
        return Err(JsonError::Write);
    }
    decoded.map_err(JsonError::Decode)?;
    let text = |r: fmt::Result| r.map_err(|_| JsonError::Write);
    if part == Part::Blocks && open.items > 0 {
        // The last block's animations are counted once the file ends.
        text(write!(out, "{}}}", open.animations))?;
    }
    text(close(out, open.items > 0, 2, ']'))
}

/// The part of the document a pass writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    /// Format, name and warnings, gathered (nothing written).
    Head,
    Animations,
    Instances,
    Cars,
    Lines,
    /// IDE: the model definitions.
    Objects,
    /// Placement files: the lines and records in file order.
    Stored,
    /// ANLF: its blocks.
    Blocks,
}

/// The visitor of one pass of [`write()`]: writes its part of the document to the output.
pub struct Pass<'a, W> {
    /// `None` for the head pass, which only gathers.
    out: Option<&'a mut W>,
    part: Part,
    open: Open,
    failed: bool,
    /// The animations pass: each animation's summary, written after its bones.
    summary: Summarizer,
    // Gathered by the head pass.
    format: Option<Format>,
    name: Option<Vec<u8>>,
    raw: Vec<u8>,
    trailing: Vec<u8>,
    files: u32,
    /// ANLF: the container's stored size.
    container_size: Option<u32>,
    /// A car came before an instance (binary IPL: not the lists' order).
    cars_first: bool,
    /// Where the decoder is, for the warnings' context.
    context: Context,
    warnings: Vec<(Warning, Context)>,
    /// A model, gathered by the head pass.
    model: Option<crate::model::ModelBuilder>,
}

impl<'a, W: Write> Pass<'a, W> {
    fn new(out: Option<&'a mut W>, part: Part) -> Self {
        Pass {
            out,
            part,
            open: Open::default(),
            failed: false,
            summary: Summarizer::new(),
            format: None,
            name: None,
            raw: Vec::new(),
            trailing: Vec::new(),
            files: 0,
            container_size: None,
            cars_first: false,
            context: Context::default(),
            warnings: Vec::new(),
            model: None,
        }
    }

    /// Writes with `f` in `part` only; a failed output aborts the decoding.
    fn emit(&mut self, part: Part, f: impl FnOnce(&mut W, &mut Open) -> fmt::Result) -> Flow {
        if self.part != part {
            return Flow::Continue;
        }
        let Some(out) = self.out.as_deref_mut() else {
            return Flow::Continue;
        };
        if f(out, &mut self.open).is_err() {
            self.failed = true;
            return Flow::Abort;
        }
        Flow::Continue
    }
}

/// The counts of the containers a pass has open, and what the open bone's frames hold.
#[derive(Default)]
struct Open {
    /// Items written at the part's top level (animations, instances, ...).
    items: u32,
    bones: u32,
    frames: u32,
    /// The stored pass: instances, cars and section lines so far (their indices).
    instances: u32,
    cars: u32,
    lines: u32,
    objects: u32,
    /// The blocks pass: the open block's animations.
    animations: u32,
    translation: bool,
    scale: bool,
    /// The open animation's and bone's headers as stored, written after their contents (a
    /// header's few bytes, the buffers reused).
    animation_raw: Vec<u8>,
    bone_raw: Vec<u8>,
}

/// The count before one more.
fn bump(count: &mut u32) -> u32 {
    *count += 1;
    *count - 1
}

/// Keeps a copy of `bytes` in `buffer`.
fn keep(buffer: &mut Vec<u8>, bytes: &[u8]) {
    buffer.clear();
    buffer.extend_from_slice(bytes);
}

impl Open {
    /// The separator before a new item of the part, at the items' indentation.
    fn next_item(&mut self, out: &mut impl Write) -> fmt::Result {
        self.items += 1;
        out.write_str(if self.items == 1 { "\n    " } else { ",\n    " })
    }

    /// A line or record of the stored pass, `index` into its list (none for a text line).
    fn stored(
        &mut self,
        out: &mut impl Write,
        item: &str,
        index: Option<u32>,
        raw: &[u8],
    ) -> fmt::Result {
        self.next_item(out)?;
        write!(out, "{{\"item\": \"{item}\", \"index\": ")?;
        opt_number(out, index)?;
        out.write_str(", \"raw\": ")?;
        if raw.is_empty() {
            out.write_str("null")?;
        } else {
            string(out, raw)?;
        }
        out.write_char('}')
    }
}

impl<W: Write> Visitor for Pass<'_, W> {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        // An ANLF container's blocks are listed as one package, under the first one's name.
        if self.files == 0 && self.part == Part::Head {
            self.format = Some(info.format);
            self.name = info.name.map(|name| name.to_vec());
            self.raw = info.raw.to_vec();
            self.container_size = info.container_size;
            if info.format == Format::Dff {
                let mut model = crate::model::ModelBuilder::default();
                model.file(info);
                self.model = Some(model);
            }
        }
        self.files += 1;
        self.context.file();
        // A block of an ANLF: an ANLF of no blocks has one file event, with no name.
        let Some(name) = info.name.filter(|_| info.container_size.is_some()) else {
            return Flow::Continue;
        };
        self.emit(Part::Blocks, |out, open| {
            if open.items > 0 {
                write!(out, "{}}}", open.animations)?;
            }
            open.animations = 0;
            open.next_item(out)?;
            out.write_str("{\"name\": ")?;
            string(out, name)?;
            out.write_str(", \"raw\": ")?;
            hex(out, info.raw)?;
            out.write_str(", \"animations\": ")
        })
    }

    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        if self.part == Part::Head {
            self.context.animation(info);
        }
        if self.part == Part::Animations {
            keep(&mut self.open.animation_raw, info.raw);
        }
        if self.part == Part::Blocks {
            self.open.animations += 1;
        }
        self.summary.animation(info);
        self.emit(Part::Animations, |out, open| {
            open.bones = 0;
            open.next_item(out)?;
            out.write_str("{\n      \"name\": ")?;
            string(out, info.name)?;
            out.write_str(",\n      \"frame_data_size\": ")?;
            opt_number(out, info.frame_data_size)?;
            out.write_str(",\n      \"flags\": ")?;
            opt_number(out, info.flags)?;
            out.write_str(",\n      \"duration\": ")?;
            match info.duration {
                Some(duration) => float(out, duration)?,
                None => out.write_str("null")?,
            }
            out.write_str(",\n      \"bones\": [")
        })
    }

    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        if self.part == Part::Head {
            self.context.bone(info);
        }
        if self.part == Part::Animations {
            keep(&mut self.open.bone_raw, info.raw);
        }
        self.summary.bone(info);
        self.emit(Part::Animations, |out, open| {
            open.bones += 1;
            open.frames = 0;
            open.translation = info.frame_type.has_translation();
            open.scale = info.frame_type.has_scale();
            out.write_str(if open.bones == 1 {
                "\n        {\n          \"name\": "
            } else {
                ",\n        {\n          \"name\": "
            })?;
            opt_string(out, info.name)?;
            out.write_str(",\n          \"bone_id\": ")?;
            opt_number(out, info.bone_id)?;
            out.write_str(",\n          \"bone_key\": ")?;
            opt_number(out, info.bone_key)?;
            out.write_str(",\n          \"frame_type\": ")?;
            string(out, info.frame_type.name().as_bytes())?;
            out.write_str(",\n          \"frames\": [")
        })
    }

    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        if self.part == Part::Animations {
            self.summary.keyframes(frames);
        }
        self.emit(Part::Animations, |out, open| {
            for frame in frames.iter() {
                open.frames += 1;
                out.write_str(if open.frames == 1 {
                    "\n            {\"time\": "
                } else {
                    ",\n            {\"time\": "
                })?;
                float(out, frame.time)?;
                out.write_str(", \"rotation\": ")?;
                floats(out, &frame.rotation)?;
                if open.translation {
                    out.write_str(", \"translation\": ")?;
                    floats(out, &frame.translation)?;
                }
                if open.scale {
                    out.write_str(", \"scale\": ")?;
                    floats(out, &frame.scale)?;
                }
                out.write_char('}')?;
            }
            Ok(())
        })
    }

    fn bone_end(&mut self) -> Flow {
        if self.part == Part::Head {
            self.context.bone_end();
        }
        self.emit(Part::Animations, |out, open| {
            close(out, open.frames > 0, 10, ']')?;
            out.write_str(",\n          \"raw\": ")?;
            hex(out, &open.bone_raw)?;
            out.write_str("\n        }")
        })
    }

    fn animation_end(&mut self) -> Flow {
        if self.part == Part::Head {
            self.context.animation_end();
        }
        let summary = self.summary.animation_end();
        self.emit(Part::Animations, |out, open| {
            close(out, open.bones > 0, 6, ']')?;
            out.write_str(",\n      \"summary\": ")?;
            write_summary(out, &summary)?;
            out.write_str(",\n      \"raw\": ")?;
            hex(out, &open.animation_raw)?;
            out.write_str("\n    }")
        })
    }

    fn record(&mut self, record: &Record<'_>) -> Flow {
        if let Some(model) = self.model.as_mut().filter(|_| self.part == Part::Head) {
            return model.record(record);
        }
        let kind = record.kind();
        // The placement document's lists; the other kinds have no part in it.
        let part = match kind {
            RecordKind::Instance => Part::Instances,
            RecordKind::Car => Part::Cars,
            RecordKind::SectionLine => Part::Lines,
            RecordKind::IdeObject => Part::Objects,
            _ => return Flow::Continue,
        };
        if self.part == Part::Head {
            match kind {
                RecordKind::Instance if self.open.cars > 0 => self.cars_first = true,
                RecordKind::Car => self.open.cars += 1,
                _ => {}
            }
        }
        if self.part == Part::Stored {
            return self.emit(Part::Stored, |out, open| {
                let index = bump(match part {
                    Part::Instances => &mut open.instances,
                    Part::Cars => &mut open.cars,
                    Part::Objects => &mut open.objects,
                    _ => &mut open.lines,
                });
                open.stored(out, kind.schema().name, Some(index), record.raw())
            });
        }
        self.emit(part, |out, open| {
            open.next_item(out)?;
            write_record(out, record)
        })
    }

    fn text_line(&mut self, raw: &[u8]) -> Flow {
        self.emit(Part::Stored, |out, open| {
            open.stored(out, "text", None, raw)
        })
    }

    fn warning(&mut self, warning: Warning) -> Flow {
        if self.part == Part::Head {
            self.warnings.push((warning, self.context));
        }
        Flow::Continue
    }

    fn trailing(&mut self, bytes: &[u8]) -> Flow {
        if self.part == Part::Head {
            self.trailing.extend_from_slice(bytes);
        }
        Flow::Continue
    }

    fn unit(&mut self, unit: &Unit<'_>) {
        if self.part == Part::Head {
            self.context.unit(unit);
        }
    }
}

/// Closes a container whose items start on lines of their own: on a line at `indent` spaces
/// when it has items, right after the opening bracket when it has none.
fn close(out: &mut impl Write, has_items: bool, indent: usize, bracket: char) -> fmt::Result {
    if has_items {
        write!(out, "\n{:indent$}", "")?;
    }
    out.write_char(bracket)
}

/// The pose document of `gtastream sample --json` and the bindings' `sample()` (docs/ANIMATION.md):
/// `{"animation", "time", "bones": [{"name", "bone_id", "rotation", "translation"}]}`, one bone a
/// line, in the file's bone order, ending with a newline. `time` is the one asked for. Nothing
/// is written if sampling fails.
pub fn write_pose<const N: usize>(
    out: &mut impl Write,
    sampler: &crate::Sampler<'_, N>,
    time: f32,
    looped: bool,
) -> Result<(), JsonError<Error>> {
    sampler
        .sample(time, looped, |_| {})
        .map_err(JsonError::Decode)?;
    let mut bones = 0;
    let mut failed = false;
    let text = |r: fmt::Result| r.map_err(|_| JsonError::Write);
    text(out.write_str("{\"animation\": "))?;
    text(string(out, sampler.name()))?;
    text(out.write_str(", \"time\": "))?;
    text(float(out, time))?;
    text(out.write_str(", \"bones\": ["))?;
    let written = sampler.sample(time, looped, |pose| {
        if failed {
            return;
        }
        bones += 1;
        let line = (|| {
            out.write_str(if bones == 1 { "\n  " } else { ",\n  " })?;
            write_bone_pose(out, pose)?;
            out.write_char('}')
        })();
        failed = line.is_err();
    });
    written.map_err(JsonError::Decode)?;
    if failed {
        return Err(JsonError::Write);
    }
    text(close(out, bones > 0, 0, ']'))?;
    text(out.write_str("}\n"))
}

/// The pose document of [`write_pose`] on a model (`gtastream sample --skeleton`,
/// docs/SKELETON.md §3): each bone also gets `"frame": INDEX|null` (the model's frame it drives
/// as `host` binds it) and `"unbound": REASON|null`, and the document
/// `"frames": [{"index", "name", "matrix": [16 numbers, column-major]}]`, every frame of the
/// model in model space at that time. Nothing is written if sampling fails.
pub fn write_pose_on<const N: usize>(
    out: &mut impl Write,
    sampler: &crate::Sampler<'_, N>,
    tracks: &crate::rig::AnimationTracks,
    skeleton: &crate::rig::Skeleton,
    host: crate::rig::Host,
    time: f32,
    looped: bool,
) -> Result<(), JsonError<Error>> {
    use crate::rig::{Binding, MAX_FRAMES, MAX_TRACKS};
    let mut matrices = alloc::vec![[0.0f32; 16]; skeleton.frames().len().min(MAX_FRAMES)];
    let mut bound: alloc::vec::Vec<(u32, Binding)> = alloc::vec::Vec::new();
    crate::rig::bind_all(skeleton, host, tracks.tracks().take(MAX_TRACKS), |t, b| {
        bound.push((t.index, b));
    });
    let n = crate::rig::pose_animation(
        skeleton,
        host,
        tracks,
        sampler,
        time,
        looped,
        &mut matrices,
        |_, _| {},
    )
    .map_err(JsonError::Decode)?;
    let mut bones = 0;
    let mut failed = false;
    let text = |r: fmt::Result| r.map_err(|_| JsonError::Write);
    text(out.write_str("{\"animation\": "))?;
    text(string(out, sampler.name()))?;
    text(out.write_str(", \"time\": "))?;
    text(float(out, time))?;
    text(out.write_str(", \"game\": "))?;
    text(string(out, host.name().as_bytes()))?;
    text(out.write_str(", \"bones\": ["))?;
    let written = sampler.sample(time, looped, |pose| {
        if failed {
            return;
        }
        bones += 1;
        let binding = bound
            .iter()
            .find(|(i, _)| *i == pose.index)
            .map(|&(_, b)| b);
        let line = (|| {
            out.write_str(if bones == 1 { "\n  " } else { ",\n  " })?;
            write_bone_pose(out, pose)?;
            out.write_str(", \"frame\": ")?;
            opt_number(out, binding.and_then(Binding::frame))?;
            out.write_str(", \"unbound\": ")?;
            match binding {
                Some(Binding::Unbound(reason)) => string(out, reason.name().as_bytes())?,
                Some(Binding::Overridden { .. }) => string(out, b"overridden")?,
                _ => out.write_str("null")?,
            }
            out.write_char('}')
        })();
        failed = line.is_err();
    });
    written.map_err(JsonError::Decode)?;
    if failed {
        return Err(JsonError::Write);
    }
    text(close(out, bones > 0, 0, ']'))?;
    text(out.write_str(", \"frames\": ["))?;
    for (i, m) in matrices.iter().take(n).enumerate() {
        let frame = &skeleton.frames()[i];
        text(out.write_str(if i == 0 { "\n  " } else { ",\n  " }))?;
        text(write!(out, "{{\"index\": {i}, \"name\": "))?;
        text(opt_string(out, frame.name.as_ref().map(|n| n.as_bytes())))?;
        text(out.write_str(", \"matrix\": "))?;
        text(floats(out, m))?;
        text(out.write_char('}'))?;
    }
    text(close(out, n > 0, 0, ']'))?;
    text(out.write_str("}\n"))
}

/// The pose document on a model ([`write_pose_on`]) of the animation named `animation` in the
/// file `data` at `time`, in one call: `gtastream sample --skeleton` and the bindings'
/// `sample()` with a model. `host` `None`: the game of [`default_host`](crate::rig::default_host).
/// [`ErrorKind::NotFound`](crate::ErrorKind::NotFound) when no animation has the name.
pub fn write_pose_document_on(
    out: &mut impl Write,
    data: &[u8],
    animation: &[u8],
    skeleton: &crate::rig::Skeleton,
    host: Option<crate::rig::Host>,
    time: f32,
    looped: bool,
) -> Result<(), JsonError<Error>> {
    let sampler = crate::Sampler::<{ crate::rig::MAX_TRACKS }>::new(data, animation)
        .map_err(JsonError::Decode)?;
    let tracks =
        crate::rig::AnimationTracks::find(data, Some(animation), 0).map_err(JsonError::Decode)?;
    let host = host.unwrap_or_else(|| crate::rig::default_host(tracks.format(), skeleton));
    write_pose_on(out, &sampler, &tracks, skeleton, host, time, looped)
}

/// An animation's summary (docs/ANIMATION.md) as the document writes it: one line. The bindings
/// that build the document without its text take the summary's from here.
pub fn write_summary(out: &mut impl Write, s: &AnimationSummary) -> fmt::Result {
    out.write_str("{\"length\": ")?;
    float(out, s.length)?;
    write!(
        out,
        ", \"bones\": {}, \"empty_bones\": {}, \"keyframes\": {}, \"bones_with_id\": {}, \
         \"bones_without_id\": {}, \"unmatched_bones\": {}, \"standard_bones\": [",
        s.bones, s.empty, s.keyframes, s.with_id, s.without_id, s.unmatched
    )?;
    for (i, bone) in s.standard_bones().enumerate() {
        if i > 0 {
            out.write_str(", ")?;
        }
        string(out, bone.name().as_bytes())?;
    }
    write!(
        out,
        "], \"storage\": {{\"packed\": {}, \"float\": {}, \"translation\": {}, \"scale\": {}}}, \
         \"mixed\": {}}}",
        s.packed,
        s.float,
        s.translation,
        s.scale,
        s.is_mixed()
    )
}

/// A warning and where it was reported: the animation's and bone's indices (as the check
/// findings give them) and the text line.
fn write_warning(out: &mut impl Write, (warning, context): &(Warning, Context)) -> fmt::Result {
    out.write_str("{\"kind\": ")?;
    string(out, warning.kind.name().as_bytes())?;
    out.write_str(", \"reason\": ")?;
    string(out, warning.kind.reason().as_bytes())?;
    write!(out, ", \"offset\": {}, \"animation\": ", warning.offset)?;
    opt_number(out, context.animation.map(|a| a.index))?;
    out.write_str(", \"bone\": ")?;
    opt_number(out, context.bone.map(|b| b.index))?;
    out.write_str(", \"line\": ")?;
    opt_number(out, context.line)?;
    out.write_char('}')
}

/// Bytes kept as stored, as a lowercase hex string; `null` where none are kept.
fn hex(out: &mut impl Write, bytes: &[u8]) -> fmt::Result {
    if bytes.is_empty() {
        return out.write_str("null");
    }
    out.write_char('"')?;
    for byte in bytes {
        write!(out, "{byte:02x}")?;
    }
    out.write_char('"')
}

pub(crate) fn opt_number(out: &mut impl Write, value: Option<impl fmt::Display>) -> fmt::Result {
    match value {
        Some(value) => write!(out, "{value}"),
        None => out.write_str("null"),
    }
}

/// The number the document holds for `value`, as a JSON reader reads it back: the `f64` nearest
/// to the shortest decimal text of the `f32` (what [`write()`] prints); `None` for NaN and the
/// infinities, which the document writes as `null`. For bindings that build the document's
/// values without its text (the text's digits are exactly those of `core::fmt`).
pub fn number(value: f32) -> Option<f64> {
    if !value.is_finite() {
        return None;
    }
    Some(shortest_fast(value).unwrap_or_else(|| shortest_slow(value)))
}

/// Powers of ten exact in an `f64`.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// `x` × 10^`k` (or the decimal `x` × 10^-`k` read back), one correctly rounded operation.
fn scale(x: f64, k: i32) -> f64 {
    if k >= 0 {
        x * POW10[k as usize]
    } else {
        x / POW10[(-k) as usize]
    }
}

/// The shortest decimal of `value` found in `f64` arithmetic: for 1, 2, ... significant digits,
/// the nearest decimal with that many, until one lies strictly inside the interval of reals
/// that round to `value` (as `core::fmt` chooses: fewest digits, then nearest). Declines (None)
/// wherever an `f64` rounding could change the answer: near a tie between two decimals that
/// may lie in the interval, near the interval's ends, and outside 1e-7..1e7 (where the powers
/// of ten would not be exact).
fn shortest_fast(value: f32) -> Option<f64> {
    let magnitude = value.abs();
    let x = f64::from(magnitude);
    if x == 0.0 {
        return Some(f64::from(value));
    }
    if !(1e-7..1e7).contains(&x) {
        return None;
    }
    // Reals between these round to `value` (both ends are exact in an f64).
    let bits = magnitude.to_bits();
    let low = (f64::from(f32::from_bits(bits - 1)) + x) / 2.0;
    let high = (f64::from(f32::from_bits(bits + 1)) + x) / 2.0;
    // One digit before the point: 1 <= x × 10^first < 10.
    let mut first = 0;
    while scale(x, first) >= 10.0 {
        first -= 1;
    }
    while scale(x, first) < 1.0 {
        first += 1;
    }
    // The nearest decimal of `digits` significant digits, if it is in the interval (an f32
    // has one of 9 or fewer); Err where the f64 arithmetic cannot tell.
    let nearest = |digits: i32| -> Result<Option<f64>, ()> {
        let k = first + digits - 1;
        let scaled = scale(x, k);
        let whole = scaled as u64 as f64;
        let fraction = scaled - whole;
        if (fraction - 0.5).abs() < 1e-6 {
            // A tie of two decimals: neither is in the interval when it is narrower than
            // their distance to `value` (as for the exact decimals of packed values).
            let half_unit = scale(0.5, -k) * (1.0 - 1e-9);
            return if half_unit > high - x && half_unit > x - low {
                Ok(None)
            } else {
                Err(())
            };
        }
        let decimal = scale(if fraction > 0.5 { whole + 1.0 } else { whole }, -k);
        let margin = decimal * 4.0 * f64::EPSILON;
        if (decimal - low).abs() < margin || (decimal - high).abs() < margin {
            return Err(());
        }
        Ok((low < decimal && decimal < high).then_some(decimal))
    };
    // More digits never leave the interval once a decimal is in it: a binary search.
    let (mut fewest, mut most, mut found) = (1, 9, None);
    while fewest <= most {
        let digits = (fewest + most) / 2;
        match nearest(digits).ok()? {
            Some(decimal) => {
                found = Some(decimal);
                most = digits - 1;
            }
            None => fewest = digits + 1,
        }
    }
    found.map(|decimal| if value < 0.0 { -decimal } else { decimal })
}

/// The shortest text, written and read back.
fn shortest_slow(value: f32) -> f64 {
    let mut text = Digits {
        bytes: [0; 64],
        len: 0,
    };
    // The longest text of a finite f32 (about 50 characters) fits.
    let _ = write!(text, "{value}");
    core::str::from_utf8(&text.bytes[..text.len])
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(f64::NAN)
}

/// A float's text, on the stack.
struct Digits {
    bytes: [u8; 64],
    len: usize,
}

impl Write for Digits {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        self.bytes
            .get_mut(self.len..end)
            .ok_or(fmt::Error)?
            .copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// A record as a JSON object: its fields in their declared order, by their declared names
/// (`record::Schema`), those the declaration keeps out of documents left out. Every kind is
/// written by this function; a new kind needs nothing here.
pub(crate) fn write_record(out: &mut impl Write, record: &Record<'_>) -> fmt::Result {
    let schema = record.kind().schema();
    out.write_char('{')?;
    let fields = schema
        .fields
        .iter()
        .enumerate()
        .filter(|(_, f)| f.in_document);
    for (n, (i, field)) in fields.enumerate() {
        if n > 0 {
            out.write_str(", ")?;
        }
        // Field names are Rust identifiers: nothing to escape.
        write!(out, "\"{}\": ", field.name)?;
        match record.value(i) {
            Value::Null => out.write_str("null")?,
            Value::I32(v) => write!(out, "{v}")?,
            Value::U32(v) => write!(out, "{v}")?,
            Value::U64(v) => write!(out, "{v}")?,
            Value::F32(v) => float(out, v)?,
            Value::Floats(v) => floats(out, v)?,
            Value::Text(v) => string(out, v)?,
        }
    }
    out.write_char('}')
}

/// A float as the shortest text that reads back to the same `f32`; NaN and infinities, which
/// JSON cannot hold, as `null`.
fn float(out: &mut impl Write, value: f32) -> fmt::Result {
    if value.is_finite() {
        write!(out, "{value}")
    } else {
        out.write_str("null")
    }
}

pub(crate) fn floats(out: &mut impl Write, values: &[f32]) -> fmt::Result {
    out.write_char('[')?;
    for (i, &value) in values.iter().enumerate() {
        if i > 0 {
            out.write_str(", ")?;
        }
        float(out, value)?;
    }
    out.write_char(']')
}

pub(crate) fn opt_string(out: &mut impl Write, bytes: Option<&[u8]>) -> fmt::Result {
    match bytes {
        Some(bytes) => string(out, bytes),
        None => out.write_str("null"),
    }
}

/// Bytes as a JSON string, one character per byte (Latin-1, as names are read: §0).
fn string(out: &mut impl Write, bytes: &[u8]) -> fmt::Result {
    out.write_char('"')?;
    for &byte in bytes {
        match byte {
            b'"' => out.write_str("\\\"")?,
            b'\\' => out.write_str("\\\\")?,
            0x00..=0x1f | 0x7f..=0x9f => write!(out, "\\u{byte:04x}")?,
            _ => out.write_char(char::from(byte))?,
        }
    }
    out.write_char('"')
}

/// A bone's pose as both pose documents give it, left open for more keys: `{"name",
/// "bone_id", "rotation", "translation"`.
fn write_bone_pose(out: &mut impl Write, pose: &crate::sample::BonePose<'_>) -> fmt::Result {
    out.write_str("{\"name\": ")?;
    opt_string(out, pose.name)?;
    out.write_str(", \"bone_id\": ")?;
    opt_number(out, pose.bone_id)?;
    out.write_str(", \"rotation\": ")?;
    floats(out, &pose.rotation)?;
    out.write_str(", \"translation\": ")?;
    match &pose.translation {
        Some(t) => floats(out, t),
        None => out.write_str("null"),
    }
}

#[cfg(test)]
mod tests {
    use super::{float, floats, number, string};
    use alloc::string::String;

    fn text(f: impl FnOnce(&mut String) -> core::fmt::Result) -> String {
        let mut out = String::new();
        f(&mut out).expect("a String accepts all text");
        out
    }

    /// Records are written from their declaration with the keys, order and shapes the
    /// document has always had (a section line's number is not in it).
    #[test]
    // The record kinds are non-exhaustive for users: built field by field as users do.
    #[allow(clippy::field_reassign_with_default)]
    fn records_keep_their_document_shape() {
        use crate::record::{IplCar, IplInstance, Record, SectionLine};
        let mut instance = IplInstance {
            model_id: 615,
            model_name: Some(b"veg_tree\"3"),
            interior: 13,
            position: [1.5, -2.0, f32::NAN],
            rotation: [0.0, 0.0, 0.5, 1.0],
            lod: -1,
            ..IplInstance::default()
        };
        let written = text(|out| super::write_record(out, &Record::Instance(instance)));
        assert_eq!(
            written,
            "{\"model_id\": 615, \"model_name\": \"veg_tree\\\"3\", \"interior\": 13, \
             \"position\": [1.5, -2, null], \"rotation\": [0, 0, 0.5, 1], \"scale\": null, \
             \"lod\": -1}"
        );
        instance.model_name = None;
        instance.scale = Some([1.0, 2.0, 0.25]);
        let written = text(|out| super::write_record(out, &Record::Instance(instance)));
        assert!(written.contains("\"model_name\": null,"), "{written}");
        assert!(written.contains("\"scale\": [1, 2, 0.25],"), "{written}");
        let mut car = IplCar {
            position: [1.0, 2.0, 3.0],
            angle: 0.5,
            ..IplCar::default()
        };
        car.set_ints([400, -1, -1, 3, 0, 0, 0, 10000]);
        assert_eq!(
            text(|out| super::write_record(out, &Record::Car(car))),
            "{\"position\": [1, 2, 3], \"angle\": 0.5, \"model_id\": 400, \"primary_color\": -1, \
             \"secondary_color\": -1, \"flags\": 3, \"alarm_chance\": 0, \"door_lock_chance\": 0, \
             \"min_delay\": 0, \"max_delay\": 10000}"
        );
        let line = SectionLine {
            section: "cull",
            text: b"1, 2, 3",
            line: 7,
            ..SectionLine::default()
        };
        assert_eq!(
            text(|out| super::write_record(out, &Record::SectionLine(line))),
            "{\"section\": \"cull\", \"text\": \"1, 2, 3\"}"
        );
    }

    /// Floats are the shortest text that reads back to the same `f32`; JSON has no NaN or
    /// infinity, which become `null`.
    #[test]
    fn floats_round_trip() {
        for v in [0.1f32, 1.0 / 3.0, 1e-40, 3.4e38, -2.5e-7, 16384.0, -0.0] {
            let printed = text(|out| float(out, v));
            let read: f32 = printed.parse().expect("a number");
            assert_eq!(read.to_bits(), v.to_bits(), "{printed}");
        }
        let special = [0.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY];
        assert_eq!(text(|out| floats(out, &special)), "[0, null, null, null]");
    }

    /// `number` is what a JSON reader reads from the text `float` writes, bit for bit: every
    /// value the packed formats give (16-bit integers over 4096, 1024 and 60), powers of two
    /// and their neighbours, and a spread of all f32 bit patterns.
    #[test]
    fn number_is_the_text_read_back() {
        let check = |v: f32| {
            let expected = if v.is_finite() {
                Some(
                    text(|out| float(out, v))
                        .parse::<f64>()
                        .expect("a number")
                        .to_bits(),
                )
            } else {
                None
            };
            assert_eq!(
                number(v).map(f64::to_bits),
                expected,
                "{v:e} ({:#x})",
                v.to_bits()
            );
        };
        for raw in i16::MIN..=i16::MAX {
            for divisor in [4096.0, 1024.0, 60.0] {
                check(f32::from(raw) / divisor);
            }
        }
        for exponent in 0..255u32 {
            let power = exponent << 23;
            for bits in [power, power + 1, power.wrapping_sub(1), power | 0x40_0000] {
                check(f32::from_bits(bits));
                check(-f32::from_bits(bits));
            }
        }
        let mut bits = 0u32;
        for _ in 0..200_000 {
            bits = bits.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            check(f32::from_bits(bits));
        }
    }

    /// Names are Latin-1 bytes: each byte one character, control characters escaped.
    #[test]
    fn strings_escape_quotes_and_controls() {
        assert_eq!(text(|out| string(out, b"a\"b\\c")), r#""a\"b\\c""#);
        assert_eq!(
            text(|out| string(out, b"\x00\x1f\n\x7f\x85")),
            r#""\u0000\u001f\u000a\u007f\u0085""#
        );
        assert_eq!(text(|out| string(out, b"\xe9\xff/")), "\"\u{e9}\u{ff}/\"");
    }
}

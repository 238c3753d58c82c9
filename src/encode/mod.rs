//! Writing files: streaming encoders for `ANP3`, `ANP2`, `ANPK`, binary and text IPL
//! (docs/FORMATS.md §9).
//!
//! An [`Encoder`] takes the decoder's events in the decoder's order (file, animation, bone,
//! keyframes, bone_end, animation_end, ..., end; or instance, car, section_line for
//! placements) and pushes the bytes to a [`Sink`] in pieces, as they are known. It never
//! allocates and never holds the file: a size or count field is written as 0 when its chunk
//! begins and patched once the chunk ends ([`Sink::patch`], the writing mirror of the
//! decoder's `Status::Seek`). The encoder is also a [`Visitor`], so a decoder's events feed it
//! directly and a conversion runs in constant memory.
//!
//! Lossless by default: a value the target cannot hold exactly is an error, never rounded or
//! cut, unless [`EncodeOptions::quantize`] allows rounding to the packed IFP2 forms.

mod anpk;
mod error;
mod ifp2;
mod ipl_binary;
#[cfg(feature = "ipl-text")]
mod ipl_text;
mod lookahead;
mod sink;

#[cfg(feature = "alloc")]
mod package;

pub use error::{EncodeError, EncodeErrorKind, LineAt, Lost, NameTooLong};
#[cfg(feature = "gltf")]
pub(crate) use lookahead::on_packed_steps;
pub use lookahead::{Lookahead, ReadAt};
#[cfg(feature = "alloc")]
pub use package::{anpk, ifp2, placement, write};
#[cfg(feature = "std")]
pub use sink::IoSink;
pub use sink::{Sink, SinkError, SliceSink};

use crate::bone_names::stories_bone_name;
use crate::format::fields::c_name;
use crate::format::fields::SECTIONS;
use crate::{
    AnimationInfo, BoneInfo, FileInfo, Flow, Format, FrameType, IplCar, IplInstance, Keyframe,
    Keyframes, Record, Visitor, Warning, WarningKind,
};

/// How an [`Encoder`] may change values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct EncodeOptions {
    /// IFP2 targets: store every bone in the packed frame types 3 and 4, rounding each value
    /// to the nearest step (quaternion 1/4096, time 1/60 s, translation 1/1024), half away
    /// from zero. A value outside the `i16` range is still an error. Off: only bones whose
    /// frames came packed are written packed, and each of their values must round-trip exactly.
    pub quantize: bool,
    /// Write clean files: the stored bytes events carry are ignored, so name fields end in
    /// zeros and every size, `frameDataSize` and `flags` is computed (docs/FORMATS.md §9.7).
    /// Off (the default): an unedited file is written back byte for byte.
    pub normalise: bool,
    /// Lines the output has no place for (text-only sections in a binary IPL, lines outside
    /// any section) are dropped, each with a warning, and counted per section
    /// ([`Encoder::dropped_lines`]). Off: the first is [`EncodeError::LineLost`].
    pub drop_text_sections: bool,
}

impl EncodeOptions {
    /// The default options with `quantize` set as given.
    pub const fn quantize(quantize: bool) -> Self {
        EncodeOptions {
            quantize,
            normalise: false,
            drop_text_sections: false,
        }
    }

    /// These options with `drop_text_sections` set as given.
    pub const fn with_drop_text_sections(self, drop_text_sections: bool) -> Self {
        EncodeOptions {
            drop_text_sections,
            ..self
        }
    }

    /// These options with `normalise` set as given.
    pub const fn with_normalise(self, normalise: bool) -> Self {
        EncodeOptions { normalise, ..self }
    }
}

/// Where an animation encoder is: which events may come next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stage {
    Start,
    File,
    Animation,
    Bone,
}

impl Stage {
    /// Moves on to `to` if the encoder is at `from`, else the event is out of order.
    pub(crate) fn go(&mut self, from: Stage, to: Stage) -> Result<(), EncodeError> {
        if *self != from {
            return Err(EncodeError::OutOfOrder);
        }
        *self = to;
        Ok(())
    }

    /// The file event: whether the header is to be written (a later `ANLF` block's file event
    /// writes nothing: its animations join the first block's, §9.1).
    pub(crate) fn begin_file(&mut self) -> Result<bool, EncodeError> {
        match *self {
            Stage::Start => {
                *self = Stage::File;
                Ok(true)
            }
            Stage::File => Ok(false),
            _ => Err(EncodeError::OutOfOrder),
        }
    }
}

/// The stored bytes of a unit, where the encoder keeps them: `raw` if it has exactly the
/// unit's `size` (else the source was another layout, or had none).
pub(crate) fn stored(raw: &[u8], size: usize) -> Option<&[u8]> {
    (raw.len() == size).then_some(raw)
}

/// A 32-bit little-endian field of a stored unit.
pub(crate) fn stored_u32(raw: &[u8], at: usize) -> u32 {
    let mut bytes = [0; 4];
    bytes.copy_from_slice(&raw[at..at + 4]);
    u32::from_le_bytes(bytes)
}

/// A bone as the encoder needs it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoneHeader<'a> {
    /// The name. Without one, a Stories bone key names the bone (docs/FORMATS.md §3.7), else
    /// the name is empty.
    pub name: Option<&'a [u8]>,
    /// The bone id (IFP2 writes −1 without one; `ANPK` writes its 48-byte form).
    pub bone_id: Option<i32>,
    /// A Stories bone key, used for the name when there is none.
    pub bone_key: Option<u32>,
    /// How the source stored the frames: decides the target's frame type (§9.2).
    pub frame_type: FrameType,
}

impl<'a> From<&BoneInfo<'a>> for BoneHeader<'a> {
    fn from(info: &BoneInfo<'a>) -> Self {
        BoneHeader {
            name: info.name,
            bone_id: info.bone_id,
            bone_key: info.bone_key,
            frame_type: info.frame_type,
        }
    }
}

/// Warnings of an encoder: what it dropped on purpose (docs/FORMATS.md §9.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EncodeWarnings {
    /// The first warning: its kind and the output offset of the record concerned.
    pub first: Option<Warning>,
    /// How many warnings there were in all.
    pub count: u32,
}

/// The bytes written so far, and the sink they went to.
#[derive(Debug)]
pub(crate) struct Out<S> {
    pub(crate) sink: S,
    pub(crate) pos: u64,
    /// Where the content ended, once bytes after it were written.
    pub(crate) content_end: Option<u64>,
}

impl<S: Sink> Out<S> {
    pub(crate) fn put(&mut self, bytes: &[u8]) -> Result<(), EncodeError> {
        self.sink.write(bytes).map_err(|_| EncodeError::Sink)?;
        self.pos += bytes.len() as u64;
        Ok(())
    }

    pub(crate) fn u32(&mut self, value: u32) -> Result<(), EncodeError> {
        self.put(&value.to_le_bytes())
    }

    pub(crate) fn zeros(&mut self, n: usize) -> Result<(), EncodeError> {
        const ZEROS: [u8; 32] = [0; 32];
        let mut left = n;
        while left > 0 {
            let piece = left.min(ZEROS.len());
            self.put(&ZEROS[..piece])?;
            left -= piece;
        }
        Ok(())
    }

    /// Writes a 0 to patch later; returns its offset.
    pub(crate) fn reserve(&mut self) -> Result<u64, EncodeError> {
        let at = self.pos;
        self.u32(0)?;
        Ok(at)
    }

    pub(crate) fn patch_u32(&mut self, at: u64, value: u32) -> Result<(), EncodeError> {
        self.sink
            .patch(at, &value.to_le_bytes())
            .map_err(|_| EncodeError::Sink)
    }

    /// The content's length: the bytes written, but for those after the content.
    pub(crate) fn content(&self) -> u64 {
        self.content_end.unwrap_or(self.pos)
    }

    /// A chunk size at `at` counts the bytes after the field up to here (the content's end).
    pub(crate) fn patch_size(&mut self, at: u64) -> Result<(), EncodeError> {
        let size = u32::try_from(self.content() - (at + 4)).map_err(|_| EncodeError::TooMany)?;
        self.patch_u32(at, size)
    }

    /// A name in a fixed field of `field` bytes: at most `field − 1` bytes and the NUL.
    pub(crate) fn fixed_name(&mut self, name: &[u8], field: usize) -> Result<(), EncodeError> {
        check_name(name, field - 1)?;
        self.put(name)?;
        self.zeros(field - name.len())
    }

    /// A name in a fixed field, as `stored` holds it (with whatever follows its NUL) if that
    /// field reads as the same name; else as [`fixed_name`](Self::fixed_name) writes it.
    pub(crate) fn name_field(
        &mut self,
        name: &[u8],
        field: usize,
        stored: Option<&[u8]>,
    ) -> Result<(), EncodeError> {
        match stored {
            Some(stored) if stored.len() == field && c_name(stored) == name => self.put(stored),
            _ => self.fixed_name(name, field),
        }
    }
}

/// A name longer than `max` bytes, or holding a NUL (which would end it early), is refused.
pub(crate) fn check_name(name: &[u8], max: usize) -> Result<(), EncodeError> {
    if name.len() > max || name.contains(&0) {
        return Err(EncodeError::NameTooLong(NameTooLong::new(name, max)));
    }
    Ok(())
}

/// One more record in a 32-bit count.
pub(crate) fn bump(count: &mut u32) -> Result<(), EncodeError> {
    *count = count.checked_add(1).ok_or(EncodeError::TooMany)?;
    Ok(())
}

/// The name written for a bone: its own, else the Stories table's or `bone_XXXXXXXX` built
/// from its key, else empty. `buf` holds a built name.
pub(crate) fn bone_name<'a>(bone: &BoneHeader<'a>, buf: &'a mut [u8; 13]) -> &'a [u8] {
    if let Some(name) = bone.name {
        return name;
    }
    let Some(key) = bone.bone_key else {
        return b"";
    };
    if let Some(name) = stories_bone_name(key, bone.bone_id.is_some()) {
        return name;
    }
    buf[..5].copy_from_slice(b"bone_");
    for (i, digit) in buf[5..].iter_mut().enumerate() {
        *digit = b"0123456789ABCDEF"[(key >> (28 - 4 * i)) as usize & 0xf];
    }
    &buf[..]
}

/// Lines dropped by [`EncodeOptions::drop_text_sections`]: a count per text IPL section, and
/// one for lines outside any section.
#[derive(Clone, Debug, Default)]
pub(crate) struct Dropped {
    counts: [u32; SECTIONS.len() + 1],
}

impl Dropped {
    /// The section's name as the decoder spells it.
    fn section(name: &str) -> Option<&'static str> {
        SECTIONS
            .iter()
            .copied()
            .find(|s| s.eq_ignore_ascii_case(name))
    }

    /// One more line of `section` (`None`: outside any section, or not a known one).
    fn add(&mut self, section: Option<&'static str>) {
        let i = section
            .and_then(|s| SECTIONS.iter().position(|&t| t == s))
            .unwrap_or(SECTIONS.len());
        self.counts[i] = self.counts[i].saturating_add(1);
    }

    fn counts(&self) -> impl Iterator<Item = (&'static str, u32)> + '_ {
        let names = SECTIONS.iter().copied().chain([""]);
        names.zip(self.counts).filter(|&(_, n)| n > 0)
    }
}

/// How a bone's target frame type is chosen.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Choice {
    /// As §9.2 chooses for the source's type; `packable`: every value lies on the packed steps.
    Auto { packable: bool },
    /// Exactly this type (packed types round).
    Exact(FrameType),
}

/// No line outside any section pending ([`Encoder::outside`]): an offset no input reaches.
const NO_LINE: u64 = u64::MAX;

#[derive(Debug)]
enum Kind {
    Ifp2(ifp2::Ifp2),
    Anpk(anpk::Anpk),
    Bnry(ipl_binary::Bnry),
    #[cfg(feature = "ipl-text")]
    Text(ipl_text::Text),
}

/// A streaming encoder: events in, bytes out to a [`Sink`]. See the module documentation.
///
/// Methods return the first error and keep returning it (an encoder that failed has left a
/// partial file in its sink: drop it). As a [`Visitor`], an error aborts the decoder
/// (`ErrorKind::Aborted`) and stays in [`error`](Self::error).
#[derive(Debug)]
pub struct Encoder<S> {
    format: Format,
    out: Out<S>,
    kind: Kind,
    options: EncodeOptions,
    error: Option<EncodeError>,
    warnings: EncodeWarnings,
    ended: bool,
    /// The format the events come from, where known ([`source`](Self::source)).
    source: Option<Format>,
    /// As a visitor: the offset of a line outside any section that the decoder warned of and
    /// has not (yet) passed on as a [`SectionLine`] (it passes none for the lines it read
    /// before it knew the text to be a placement file). [`NO_LINE`]: none (a plain offset keeps
    /// the encoder within its size budget).
    outside: u64,
}

impl<S: Sink> Encoder<S> {
    /// An encoder writing `format` to `sink` (`Format::Anim` is not written: §9.5; nor is
    /// `Format::IplText` without the `ipl-text` feature).
    pub fn new(format: Format, sink: S, options: EncodeOptions) -> Result<Self, EncodeError> {
        let kind = match format {
            Format::Anp3 => Kind::Ifp2(ifp2::Ifp2::new(true)),
            Format::Anp2 => Kind::Ifp2(ifp2::Ifp2::new(false)),
            Format::Anpk => Kind::Anpk(anpk::Anpk::new()),
            Format::IplBinary => Kind::Bnry(ipl_binary::Bnry::new()),
            #[cfg(feature = "ipl-text")]
            Format::IplText => Kind::Text(ipl_text::Text::new()),
            format => return Err(EncodeError::UnsupportedFormat(format)),
        };
        Ok(Encoder {
            format,
            out: Out {
                sink,
                pos: 0,
                content_end: None,
            },
            kind,
            options,
            error: None,
            warnings: EncodeWarnings::default(),
            ended: false,
            source: None,
            outside: NO_LINE,
        })
    }

    /// The format written.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The first error, if any.
    pub fn error(&self) -> Option<EncodeError> {
        self.error
    }

    /// What was dropped with a warning.
    pub fn warnings(&self) -> EncodeWarnings {
        self.warnings
    }

    /// Bytes written so far.
    pub fn written(&self) -> u64 {
        self.out.pos
    }

    /// Whether [`end`](Self::end) completed the file.
    pub fn is_finished(&self) -> bool {
        self.ended && self.error.is_none()
    }

    /// The sink.
    pub fn sink(&self) -> &S {
        &self.out.sink
    }

    /// Gives the sink back.
    pub fn into_sink(self) -> S {
        self.out.sink
    }

    fn run(
        &mut self,
        f: impl FnOnce(
            &mut Kind,
            &mut Out<S>,
            &EncodeOptions,
        ) -> Result<Option<WarningKind>, EncodeError>,
    ) -> Result<(), EncodeError> {
        if let Some(error) = self.error {
            return Err(error);
        }
        if self.ended {
            return Err(self.fail(EncodeError::OutOfOrder));
        }
        let at = self.out.pos;
        match f(&mut self.kind, &mut self.out, &self.options) {
            Ok(warning) => {
                if let Some(kind) = warning {
                    self.warnings
                        .first
                        .get_or_insert(Warning { kind, offset: at });
                    self.warnings.count = self.warnings.count.saturating_add(1);
                }
                Ok(())
            }
            Err(error) => Err(self.fail(error)),
        }
    }

    /// The events come from a file in `format` (as a visitor, the file event says so): the
    /// stored bytes they carry are kept only if it is the format written. Unset, they are.
    pub fn source(&mut self, format: Format) {
        self.source = Some(format);
    }

    /// Whether the source's stored bytes are kept: it is written back to its own format, and
    /// not normalised (§9.7).
    pub fn keeps_stored(&self) -> bool {
        !self.options.normalise && self.writes_own_format()
    }

    /// Whether the source is written to its own format (or its format is not known): its
    /// values then keep their form, frame types included, normalised or not (§9.7).
    pub fn writes_own_format(&self) -> bool {
        self.source.is_none_or(|f| f == self.format)
    }

    /// A source unit's stored bytes, if they are kept.
    fn own<'a>(&self, raw: &'a [u8]) -> &'a [u8] {
        if self.keeps_stored() {
            raw
        } else {
            &[]
        }
    }

    fn fail(&mut self, error: EncodeError) -> EncodeError {
        *self.error.get_or_insert(error)
    }

    /// The file begins (an `ANLF`'s later blocks merge into the first: §9.1).
    pub fn file(&mut self, name: Option<&[u8]>) -> Result<(), EncodeError> {
        self.file_raw(name, &[])
    }

    /// The file begins, with its header as the source stored it ([`FileInfo::raw`], in the
    /// format written): unless [`EncodeOptions::normalise`], what the values do not fix is
    /// written as stored (§9.7).
    pub fn file_raw(&mut self, name: Option<&[u8]>, raw: &[u8]) -> Result<(), EncodeError> {
        self.file_in(name, raw, None)
    }

    /// An `ANLF` block begins ([`FileInfo::container_size`]: the container's `size` field as
    /// stored; `name` `None` for the one file event of an `ANLF` of no blocks), its header as
    /// stored. Written to `ANPK` with the stored bytes kept, the blocks are written back in
    /// their container, each an `ANPK` (§9.7); else they join the first block (§9.1).
    pub fn file_in_container(
        &mut self,
        name: Option<&[u8]>,
        raw: &[u8],
        container_size: u32,
    ) -> Result<(), EncodeError> {
        self.file_in(name, raw, Some(container_size))
    }

    fn file_in(
        &mut self,
        name: Option<&[u8]>,
        raw: &[u8],
        container: Option<u32>,
    ) -> Result<(), EncodeError> {
        let container = container.filter(|_| self.keeps_stored());
        let raw = self.own(raw);
        self.run(|kind, out, _| {
            match kind {
                Kind::Ifp2(e) => e.file(out, name, raw)?,
                Kind::Anpk(e) => e.file(out, name, raw, container)?,
                Kind::Bnry(e) => e.file(out, raw)?,
                #[cfg(feature = "ipl-text")]
                Kind::Text(e) => e.file()?,
            }
            Ok(None)
        })
    }

    /// An animation begins.
    pub fn animation(&mut self, name: &[u8]) -> Result<(), EncodeError> {
        self.animation_raw(name, &[])
    }

    /// An animation begins, with its header as stored ([`AnimationInfo::raw`]; see
    /// [`file_raw`](Self::file_raw)).
    pub fn animation_raw(&mut self, name: &[u8], raw: &[u8]) -> Result<(), EncodeError> {
        let raw = self.own(raw);
        self.run(|kind, out, _| {
            match kind {
                Kind::Ifp2(e) => e.animation(out, name, raw)?,
                Kind::Anpk(e) => e.animation(out, name, raw)?,
                _ => return Err(EncodeError::OutOfOrder),
            }
            Ok(None)
        })
    }

    /// A bone begins; its frames are written in the type §9.2 chooses for the source's type.
    pub fn bone(&mut self, bone: &BoneHeader<'_>) -> Result<(), EncodeError> {
        self.bone_in(bone, Choice::Auto { packable: false }, &[])
    }

    /// A bone begins, with its header as stored ([`BoneInfo::raw`]; see
    /// [`file_raw`](Self::file_raw)); its frames are written as [`bone`](Self::bone) chooses.
    pub fn bone_raw(&mut self, bone: &BoneHeader<'_>, raw: &[u8]) -> Result<(), EncodeError> {
        self.bone_in(bone, Choice::Auto { packable: false }, raw)
    }

    /// A bone begins whose every value the caller knows to lie exactly on the packed steps
    /// (a pre-pass over its frames, as [`Lookahead`] makes): IFP2 targets write it packed. Each
    /// value is still checked: one that is not exact is `NotRepresentable`, never rounded.
    /// Other targets: as [`bone`](Self::bone).
    pub fn bone_packable(&mut self, bone: &BoneHeader<'_>) -> Result<(), EncodeError> {
        self.bone_in(bone, Choice::Auto { packable: true }, &[])
    }

    /// The options the encoder was made with.
    pub fn options(&self) -> EncodeOptions {
        self.options
    }

    /// A bone begins, its frames to be written in exactly `frame_type` (packed types round
    /// each value, as [`EncodeOptions::quantize`] does). For the whole-file API.
    pub fn bone_as(
        &mut self,
        bone: &BoneHeader<'_>,
        frame_type: FrameType,
    ) -> Result<(), EncodeError> {
        self.bone_in(bone, Choice::Exact(frame_type), &[])
    }

    /// A bone begins: its frame type chosen as `choice` says, its stored header `raw`.
    pub(crate) fn bone_in(
        &mut self,
        bone: &BoneHeader<'_>,
        choice: Choice,
        raw: &[u8],
    ) -> Result<(), EncodeError> {
        let raw = self.own(raw);
        self.run(|kind, out, options| {
            let source = bone.frame_type;
            match (kind, choice) {
                (Kind::Ifp2(e), Choice::Auto { packable }) => {
                    let packed = source.is_packed() || options.quantize || packable;
                    let target = match (packed, source.has_translation()) {
                        (false, false) => FrameType::Ifp2Rot,
                        (false, true) => FrameType::Ifp2RotTrans,
                        (true, false) => FrameType::Ifp2PackedRot,
                        (true, true) => FrameType::Ifp2PackedRotTrans,
                    };
                    e.bone(out, bone, target, options.quantize, raw)?;
                    return Ok(source.has_scale().then_some(WarningKind::ScaleDropped));
                }
                (Kind::Ifp2(e), Choice::Exact(frame_type)) if frame_type.ifp2_type().is_some() => {
                    e.bone(out, bone, frame_type, true, raw)?
                }
                (Kind::Anpk(e), Choice::Auto { .. }) => {
                    let target = if source.has_scale() {
                        FrameType::Krts
                    } else if source.has_translation() {
                        FrameType::Krt0
                    } else {
                        FrameType::Kr00
                    };
                    e.bone(out, bone, target, raw)?
                }
                (Kind::Anpk(e), Choice::Exact(frame_type))
                    if matches!(
                        frame_type,
                        FrameType::Kr00 | FrameType::Krt0 | FrameType::Krts
                    ) =>
                {
                    e.bone(out, bone, frame_type, raw)?
                }
                (Kind::Ifp2(_) | Kind::Anpk(_), Choice::Exact(frame_type)) => {
                    return Err(EncodeError::UnsupportedFrameType(frame_type))
                }
                _ => return Err(EncodeError::OutOfOrder),
            }
            Ok(None)
        })
    }

    /// One keyframe of the current bone.
    pub fn keyframe(&mut self, frame: &Keyframe) -> Result<(), EncodeError> {
        self.run(|kind, out, _| {
            match kind {
                Kind::Ifp2(e) => e.keyframe(out, frame)?,
                Kind::Anpk(e) => e.keyframe(out, frame)?,
                _ => return Err(EncodeError::OutOfOrder),
            }
            Ok(None)
        })
    }

    /// A batch of keyframes of the current bone.
    pub fn keyframes(&mut self, frames: Keyframes<'_>) -> Result<(), EncodeError> {
        frames.iter().try_for_each(|frame| self.keyframe(&frame))
    }

    /// The current bone ends.
    pub fn bone_end(&mut self) -> Result<(), EncodeError> {
        self.run(|kind, out, _| {
            match kind {
                Kind::Ifp2(e) => e.bone_end(out)?,
                Kind::Anpk(e) => e.bone_end(out)?,
                _ => return Err(EncodeError::OutOfOrder),
            }
            Ok(None)
        })
    }

    /// The current animation ends.
    pub fn animation_end(&mut self) -> Result<(), EncodeError> {
        self.run(|kind, out, _| {
            match kind {
                Kind::Ifp2(e) => e.animation_end(out)?,
                Kind::Anpk(e) => e.animation_end(out)?,
                _ => return Err(EncodeError::OutOfOrder),
            }
            Ok(None)
        })
    }

    /// A placed object. A model name a binary IPL cannot store is dropped, and an instance
    /// without one is written to a text IPL as `dummy`, each with a warning.
    pub fn instance(&mut self, instance: &IplInstance<'_>) -> Result<(), EncodeError> {
        let instance = &IplInstance {
            raw: self.own(instance.raw),
            ..*instance
        };
        self.run(|kind, out, _| match kind {
            Kind::Bnry(e) => {
                e.instance(out, instance)?;
                Ok(instance.model_name.map(|_| WarningKind::ModelNameDropped))
            }
            #[cfg(feature = "ipl-text")]
            Kind::Text(e) => {
                e.instance(out, instance)?;
                let missing = instance.model_name.is_none();
                Ok(missing.then_some(WarningKind::ModelNameMissing))
            }
            _ => Err(EncodeError::OutOfOrder),
        })
    }

    /// A car generator.
    pub fn car(&mut self, car: &IplCar<'_>) -> Result<(), EncodeError> {
        let car = &IplCar {
            raw: self.own(car.raw),
            ..*car
        };
        self.run(|kind, out, _| {
            match kind {
                Kind::Bnry(e) => e.car(out, car)?,
                #[cfg(feature = "ipl-text")]
                Kind::Text(e) => e.car(out, car)?,
                _ => return Err(EncodeError::OutOfOrder),
            }
            Ok(None)
        })
    }

    /// A record of any kind, as [`instance`](Self::instance), [`car`](Self::car) and
    /// [`section_line_stored`](Self::section_line_stored) write theirs: what the bindings
    /// call, so that a kind a format gains needs no entry of its own in them. A kind no format
    /// the encoder writes holds is [`EncodeError::OutOfOrder`].
    pub fn record(&mut self, record: &Record<'_>) -> Result<(), EncodeError> {
        match record {
            Record::Instance(instance) => self.instance(instance),
            Record::Car(car) => self.car(car),
            Record::SectionLine(line) => {
                self.section_line_stored(line.section, line.text, line.line, line.raw)
            }
            _ => self.run(|_, _, _| Err(EncodeError::OutOfOrder)),
        }
    }

    /// A line of a text IPL section without an event of its own (`section` lower case).
    pub fn section_line(&mut self, section: &str, text: &[u8]) -> Result<(), EncodeError> {
        self.section_line_in(section, text, 0, &[])
    }

    /// A line of a text IPL section with its line as stored ([`crate::record::SectionLine::raw`]): written as
    /// stored while it holds `text` (§9.7), else as [`section_line_at`](Self::section_line_at)
    /// writes it.
    pub fn section_line_stored(
        &mut self,
        section: &str,
        text: &[u8],
        line: u32,
        raw: &[u8],
    ) -> Result<(), EncodeError> {
        let raw = self.own(raw);
        self.section_line_in(section, text, line, raw)
    }

    /// A line of the source that brought no event of its own ([`Visitor::text_line`]: a blank
    /// line, a comment, a section name, `end`, with its line break): a text IPL written back
    /// keeps it as it is (it may come before [`file`](Self::file)); other targets and
    /// [`EncodeOptions::normalise`] ignore it. A `raw` that is not one line (a line break
    /// before its end, a NUL, over `MAX_LINE` bytes) is `NotRepresentable`.
    // Without text IPL no target takes the line.
    #[cfg_attr(not(feature = "ipl-text"), allow(unused_variables))]
    pub fn text_line(&mut self, raw: &[u8]) -> Result<(), EncodeError> {
        let raw = self.own(raw);
        self.run(|kind, out, _| match kind {
            #[cfg(feature = "ipl-text")]
            Kind::Text(e) => e.text_line(out, raw).map(|()| None),
            _ => Ok(None),
        })
    }

    /// A line of a text IPL section, with its line number in the source ([`crate::record::SectionLine::line`],
    /// 0 if unknown) for the error if the output has no place for it: a binary IPL has none
    /// (unless [`EncodeOptions::drop_text_sections`] drops it, counted per section). Section
    /// `""`: a line outside any section.
    // Without text IPL no target takes the line.
    #[cfg_attr(not(feature = "ipl-text"), allow(unused_variables))]
    pub fn section_line_at(
        &mut self,
        section: &str,
        text: &[u8],
        line: u32,
    ) -> Result<(), EncodeError> {
        self.section_line_in(section, text, line, &[])
    }

    #[cfg_attr(not(feature = "ipl-text"), allow(unused_variables))]
    fn section_line_in(
        &mut self,
        section: &str,
        text: &[u8],
        line: u32,
        raw: &[u8],
    ) -> Result<(), EncodeError> {
        self.run(|kind, out, options| match kind {
            #[cfg(feature = "ipl-text")]
            Kind::Text(e) => e.section_line(out, section, text, raw).map(|()| None),
            Kind::Bnry(e) => {
                let known = Dropped::section(section);
                if !options.drop_text_sections {
                    let section = match known {
                        Some(name) => name,
                        None if section.is_empty() => "",
                        None => "?",
                    };
                    let at = LineAt {
                        section,
                        line,
                        offset: 0,
                    };
                    return Err(EncodeError::LineLost(at));
                }
                e.dropped.add(known);
                Ok(Some(WarningKind::SectionLineDropped))
            }
            _ => Err(EncodeError::OutOfOrder),
        })
    }

    /// A line of the source outside any section that the decoder warned of but did not pass
    /// on: an error, unless [`EncodeOptions::drop_text_sections`] drops it, counted.
    fn line_outside(&mut self, offset: u64) -> Result<(), EncodeError> {
        self.run(|kind, _, options| {
            let dropped = match kind {
                Kind::Bnry(e) => &mut e.dropped,
                #[cfg(feature = "ipl-text")]
                Kind::Text(e) => &mut e.dropped,
                _ => return Ok(None),
            };
            if !options.drop_text_sections {
                let at = LineAt {
                    section: "",
                    line: 0,
                    offset,
                };
                return Err(EncodeError::LineLost(at));
            }
            dropped.add(None);
            Ok(Some(WarningKind::SectionLineDropped))
        })
    }

    /// As a visitor, before any event but the [`SectionLine`] that may pass the line on: a line
    /// outside any section warned of and not passed on is lost.
    fn settle_outside(&mut self) -> Result<(), EncodeError> {
        match core::mem::replace(&mut self.outside, NO_LINE) {
            NO_LINE => Ok(()),
            offset => self.line_outside(offset),
        }
    }

    /// The lines dropped by [`EncodeOptions::drop_text_sections`], per section in the order of
    /// docs/FORMATS.md §4.5 (`""`: outside any section), with their counts.
    pub fn dropped_lines(&self) -> impl Iterator<Item = (&'static str, u32)> + '_ {
        let dropped = match &self.kind {
            Kind::Bnry(e) => Some(&e.dropped),
            #[cfg(feature = "ipl-text")]
            Kind::Text(e) => Some(&e.dropped),
            _ => None,
        };
        dropped.into_iter().flat_map(Dropped::counts)
    }

    /// Bytes that followed the source's content ([`Visitor::trailing`]), written after the
    /// content as they were, where stored bytes are kept (else dropped: normalising, or from
    /// another format). Only `end` may follow.
    pub fn trailing(&mut self, bytes: &[u8]) -> Result<(), EncodeError> {
        let keep = self.keeps_stored();
        self.run(|kind, out, _| match kind {
            _ if !keep => Ok(None),
            #[cfg(feature = "ipl-text")]
            Kind::Text(e) => e.trailing(out, bytes).map(|()| None),
            _ => {
                let end = out.content();
                out.content_end = Some(end);
                out.put(bytes)?;
                Ok(None)
            }
        })
    }

    /// The input ended: the last fields are patched and the file is complete.
    pub fn end(&mut self) -> Result<(), EncodeError> {
        self.run(|kind, out, _| {
            match kind {
                Kind::Ifp2(e) => e.end(out)?,
                Kind::Anpk(e) => e.end(out)?,
                Kind::Bnry(e) => e.end(out)?,
                #[cfg(feature = "ipl-text")]
                Kind::Text(e) => e.end(out)?,
            }
            Ok(None)
        })?;
        self.ended = true;
        Ok(())
    }
}

pub(crate) fn flow(result: Result<(), EncodeError>) -> Flow {
    match result {
        Ok(()) => Flow::Continue,
        Err(_) => Flow::Abort,
    }
}

/// The decoder's events, written as they come. Source warnings are not the output's
/// business and are ignored; an encoding error aborts the decoder.
impl<S: Sink> Visitor for Encoder<S> {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        if info.format.is_animation() != self.format.is_animation() {
            let error = EncodeError::CannotConvert(info.format, self.format);
            return flow(Err(self.fail(error)));
        }
        // Stored bytes are kept only in their own format.
        self.source(info.format);
        flow(self.file_in(info.name, info.raw, info.container_size))
    }
    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        flow(Encoder::animation_raw(self, info.name, info.raw))
    }
    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        flow(Encoder::bone_raw(self, &BoneHeader::from(info), info.raw))
    }
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        flow(Encoder::keyframes(self, frames))
    }
    fn bone_end(&mut self) -> Flow {
        flow(Encoder::bone_end(self))
    }
    fn animation_end(&mut self) -> Flow {
        flow(Encoder::animation_end(self))
    }
    fn record(&mut self, record: &Record<'_>) -> Flow {
        match record {
            Record::Instance(instance) => flow(
                self.settle_outside()
                    .and_then(|()| Encoder::instance(self, instance)),
            ),
            Record::Car(car) => flow(self.settle_outside().and_then(|()| Encoder::car(self, car))),
            Record::SectionLine(line) => {
                // A line outside any section (`""`) is the one last warned of, passed on.
                let settled = if line.section.is_empty() {
                    self.outside = NO_LINE;
                    Ok(())
                } else {
                    self.settle_outside()
                };
                flow(settled.and_then(|()| {
                    Encoder::section_line_stored(self, line.section, line.text, line.line, line.raw)
                }))
            }
            // No format the encoder writes has a place for the other kinds.
            _ => flow(self.run(|_, _, _| Err(EncodeError::OutOfOrder))),
        }
    }
    fn text_line(&mut self, raw: &[u8]) -> Flow {
        flow(
            self.settle_outside()
                .and_then(|()| Encoder::text_line(self, raw)),
        )
    }
    fn warning(&mut self, warning: Warning) -> Flow {
        // Source warnings are not the output's business, but a line outside any section is
        // one the output would lose without a word if the decoder does not pass it on (a text
        // IPL written back with its stored lines has every line: §9.7).
        let settled = self.settle_outside();
        let kept = self.format == Format::IplText && self.keeps_stored();
        if warning.kind == WarningKind::LineOutsideSection && !kept {
            self.outside = warning.offset;
        }
        flow(settled)
    }
    fn trailing(&mut self, bytes: &[u8]) -> Flow {
        flow(
            self.settle_outside()
                .and_then(|()| Encoder::trailing(self, bytes)),
        )
    }
    fn end(&mut self) -> Flow {
        flow(self.settle_outside().and_then(|()| Encoder::end(self)))
    }
}

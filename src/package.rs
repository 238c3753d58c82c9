//! Whole-file convenience (feature `alloc`): a decoded package as owned values.

use alloc::string::String;
use alloc::vec::Vec;

use crate::{
    name_matches, AnimationInfo, AnimationSummary, BoneInfo, BonePose, Decoder, Error, ErrorKind,
    FileInfo, Flow, Format, FrameType, Keyframe, Keyframes, Summarizer, Visitor, Warning,
};

/// A decoded animation package. The blocks of an `ANLF` container are merged into one
/// package that bears the first block's name.
///
/// The package keeps its units as stored (`raw`, and the bytes after the content), so that
/// [`encode::write`](crate::encode::write) gives an unedited file back byte for byte
/// (docs/FORMATS.md §9.7); [`normalise`](Self::normalise) forgets them. Comparison looks at
/// the values only, never at the stored bytes.
#[derive(Clone, Debug)]
pub struct Package {
    /// The format the file was in.
    pub format: Format,
    /// The package name, where the format stores one.
    pub name: Option<String>,
    /// The animations, in file order.
    pub animations: Vec<Animation>,
    /// Everything odd the decoder noticed, in file order.
    pub warnings: Vec<Warning>,
    /// The file header as stored ([`FileInfo::raw`]; empty: written clean).
    pub raw: Vec<u8>,
    /// The bytes after the file's content ([`Visitor::trailing`]).
    pub trailing: Vec<u8>,
}

/// One animation (clip) of a package.
#[derive(Clone, Debug)]
pub struct Animation {
    /// The name as stored (one character per byte).
    pub name: String,
    /// ANP3 only: the declared bytes of all keyframes.
    pub frame_data_size: Option<u32>,
    /// ANP3 only: bit 0 = compressed.
    pub flags: Option<u32>,
    /// Stories only: the clip's length in seconds.
    pub duration: Option<f32>,
    /// The animated bones, in file order.
    pub bones: Vec<Bone>,
    /// The animation header as stored ([`AnimationInfo::raw`]; empty: written clean).
    pub raw: Vec<u8>,
}

/// One animated bone (object) and its keyframes.
#[derive(Clone, Debug)]
pub struct Bone {
    /// The name as stored (one character per byte), where the format stores one.
    pub name: Option<String>,
    /// The bone id as stored (IFP2 keeps −1, "match by name").
    pub bone_id: Option<i32>,
    /// Stories only: the 32-bit bone key.
    pub bone_key: Option<u32>,
    /// How the keyframes were stored.
    pub frame_type: FrameType,
    /// The keyframes, decoded.
    pub frames: Vec<Keyframe>,
    /// The bone header as stored ([`BoneInfo::raw`]; empty: written clean).
    pub raw: Vec<u8>,
}

// The values compared, the stored bytes not (each field named, so that a new one is seen).
impl PartialEq for Package {
    fn eq(&self, other: &Self) -> bool {
        let Package {
            format,
            name,
            animations,
            warnings,
            raw: _,
            trailing: _,
        } = self;
        (format, name, animations, warnings)
            == (
                &other.format,
                &other.name,
                &other.animations,
                &other.warnings,
            )
    }
}

impl PartialEq for Animation {
    fn eq(&self, other: &Self) -> bool {
        let Animation {
            name,
            frame_data_size,
            flags,
            duration,
            bones,
            raw: _,
        } = self;
        (name, frame_data_size, flags, duration, bones)
            == (
                &other.name,
                &other.frame_data_size,
                &other.flags,
                &other.duration,
                &other.bones,
            )
    }
}

impl PartialEq for Bone {
    fn eq(&self, other: &Self) -> bool {
        let Bone {
            name,
            bone_id,
            bone_key,
            frame_type,
            frames,
            raw: _,
        } = self;
        (name, bone_id, bone_key, frame_type, frames)
            == (
                &other.name,
                &other.bone_id,
                &other.bone_key,
                &other.frame_type,
                &other.frames,
            )
    }
}

/// Maps each byte to the code point of the same value (Latin-1), so no name is lost.
pub(crate) fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

impl Package {
    /// Decodes a whole animation file held in memory (a placement file is
    /// [`ErrorKind::BadMagic`](crate::ErrorKind::BadMagic) here: see `Placement`).
    pub fn parse(data: &[u8]) -> Result<Package, Error> {
        let mut builder = PackageBuilder {
            package: None,
            warnings: Vec::new(),
            record_budget: data.len(),
        };
        decode_whole(data, &mut builder, |b| b.package.is_some())?;
        builder.finish().ok_or(Error {
            kind: ErrorKind::Truncated,
            offset: 0,
        })
    }

    /// Each animation's summary, in file order.
    pub fn summaries(&self) -> impl Iterator<Item = AnimationSummary> + '_ {
        self.animations.iter().zip(0..).map(|(animation, index)| {
            let mut summary = animation.summary();
            summary.index = index;
            summary
        })
    }

    /// Forgets the stored bytes: the package is then written as a clean file (zeroed name
    /// tails, computed sizes and flags, nothing after the content).
    pub fn normalise(&mut self) {
        self.raw.clear();
        self.trailing.clear();
        for animation in &mut self.animations {
            animation.raw.clear();
            for bone in &mut animation.bones {
                bone.raw.clear();
            }
        }
    }

    /// The first animation of that name, compared as [`name_matches`] does: ASCII case aside,
    /// as the game compares, and ASCII whitespace around either name ignored.
    pub fn animation(&self, name: &str) -> Option<&Animation> {
        self.animations
            .iter()
            .find(|a| name_matches(a.name.as_bytes(), name.as_bytes()))
    }
}

impl Animation {
    /// The first bone of that name, compared as [`name_matches`] does: `"pelvis"` finds the
    /// ` Pelvis` of a real San Andreas file. Matching by [`bone_by_id`](Self::bone_by_id) is surer
    /// where the file stores ids.
    pub fn bone(&self, name: &str) -> Option<&Bone> {
        self.bones.iter().find(|b| {
            b.name
                .as_deref()
                .is_some_and(|n| name_matches(n.as_bytes(), name.as_bytes()))
        })
    }

    /// What the animation is: its length by the games' rule, the bones it defines and how
    /// they are stored (the summary a streaming decode reports, from the same code).
    /// (Its `index` is 0: [`Package::summaries`] numbers them.)
    pub fn summary(&self) -> AnimationSummary {
        let mut summarizer = Summarizer::new();
        for bone in &self.bones {
            // Latin-1 names: the standard names are ASCII, so UTF-8 bytes compare alike.
            let name = bone.name.as_deref().map(str::as_bytes);
            summarizer.begin_bone(bone.bone_id, name, bone.frame_type);
            if let Some(last) = bone.frames.last() {
                summarizer.add_keys(bone.frames.len() as u64, last.time);
            }
        }
        summarizer.animation_end()
    }

    /// The animation's length in seconds, as the games compute it ([`AnimationSummary::length`]).
    pub fn length(&self) -> f32 {
        self.summary().length
    }

    /// The pose of every bone that has keys at `time` seconds, in file order, computed as the
    /// games compute it (the same code as [`Sampler`](crate::Sampler); docs/ANIMATION.md).
    /// Errors carry offset 0 (the values no longer know where they were stored).
    pub fn sample(
        &self,
        time: f32,
        looped: bool,
        mut f: impl FnMut(&BonePose<'_>),
    ) -> Result<(), Error> {
        let time = crate::sample::wrap(time, self.length(), looped)?;
        for (index, bone) in (0u32..).zip(&self.bones) {
            if bone.frames.is_empty() {
                continue;
            }
            let (rotation, translation) = crate::sample::pose(
                bone.frames.iter().copied(),
                bone.frames.len(),
                bone.frame_type.has_translation(),
                time,
                looped,
            )
            .map_err(|kind| Error { kind, offset: 0 })?;
            f(&BonePose {
                index,
                name: bone.name.as_deref().map(str::as_bytes),
                bone_id: bone.bone_id,
                rotation,
                translation,
            });
        }
        Ok(())
    }

    /// The bone with that id (the skin's HAnim node id): the reliable way to match a skeleton.
    pub fn bone_by_id(&self, id: i32) -> Option<&Bone> {
        self.bones.iter().find(|b| b.bone_id == Some(id))
    }
}

/// Decodes a whole file for a builder that aborts at the `file` event of a format it does
/// not collect: that is [`ErrorKind::BadMagic`] at 0. A successful decode saw the file event.
pub(crate) fn decode_whole<V: Visitor>(
    data: &[u8],
    builder: &mut V,
    accepted: impl Fn(&V) -> bool,
) -> Result<(), Error> {
    match Decoder::new().decode_slice(data, builder) {
        Err(error) if error.kind == ErrorKind::Aborted && !accepted(builder) => Err(Error {
            kind: ErrorKind::BadMagic,
            offset: 0,
        }),
        result => result,
    }
}

/// Collects the events of one animation file into a [`Package`]: the visitor behind
/// [`Package::parse`], for callers that drive a decoder themselves (in pieces, from a reader,
/// an archive's entry). It aborts at the `file` event of a placement file.
#[derive(Debug)]
pub struct PackageBuilder {
    package: Option<Package>,
    /// Warnings, including those reported before the `file` event.
    warnings: Vec<Warning>,
    /// Input bytes: no count read from the file may reserve more records than this.
    record_budget: usize,
}

impl Default for PackageBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl PackageBuilder {
    /// A builder for a file of unknown length: keyframe storage is reserved from the counts
    /// the file declares, up to 1 MiB worth per bone, and grows past that as frames arrive.
    pub fn new() -> Self {
        PackageBuilder {
            package: None,
            warnings: Vec::new(),
            record_budget: 1 << 20,
        }
    }

    /// The package, with every warning; `None` if no `file` event came.
    pub fn finish(self) -> Option<Package> {
        let mut package = self.package?;
        package.warnings = self.warnings;
        Some(package)
    }

    fn animation(&mut self) -> Option<&mut Animation> {
        self.package.as_mut()?.animations.last_mut()
    }
}

impl Visitor for PackageBuilder {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        if !info.format.is_animation() {
            return Flow::Abort;
        }
        // The blocks of an ANLF container merge into the first one's package, which is then
        // no longer that block: its stored header (and size) would not fit it.
        if let Some(package) = self.package.as_mut() {
            package.raw.clear();
            return Flow::Continue;
        }
        self.package = Some(Package {
            format: info.format,
            name: info.name.map(latin1),
            animations: Vec::new(),
            warnings: Vec::new(),
            raw: info.raw.to_vec(),
            trailing: Vec::new(),
        });
        Flow::Continue
    }

    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        if let Some(package) = self.package.as_mut() {
            package.animations.push(Animation {
                name: latin1(info.name),
                frame_data_size: info.frame_data_size,
                flags: info.flags,
                duration: info.duration,
                bones: Vec::new(),
                raw: info.raw.to_vec(),
            });
        }
        Flow::Continue
    }

    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        let capacity = (info.frame_count as usize).min(self.record_budget / info.frame_type.size());
        if let Some(animation) = self.animation() {
            animation.bones.push(Bone {
                name: info.name.map(latin1),
                bone_id: info.bone_id,
                bone_key: info.bone_key,
                frame_type: info.frame_type,
                frames: Vec::with_capacity(capacity),
                raw: info.raw.to_vec(),
            });
        }
        Flow::Continue
    }

    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        if let Some(bone) = self.animation().and_then(|a| a.bones.last_mut()) {
            bone.frames.extend(frames.iter());
        }
        Flow::Continue
    }

    fn trailing(&mut self, bytes: &[u8]) -> Flow {
        if let Some(package) = self.package.as_mut() {
            package.trailing.extend_from_slice(bytes);
        }
        Flow::Continue
    }

    fn warning(&mut self, warning: Warning) -> Flow {
        self.warnings.push(warning);
        Flow::Continue
    }
}

//! The event model: what the decoder reports, and the [`Visitor`] that receives it.
//!
//! Events come in this order: `file`, then per animation `animation`, per bone `bone`,
//! `keyframes` (zero or more batches), `bone_end`, then `animation_end`; `end` last (from
//! [`Decoder::finish`](crate::Decoder::finish)). `warning` may come anywhere.

use crate::error::Warning;
use crate::keyframe::{FrameType, Keyframes};
use crate::record::Record;
use crate::summary::AnimationSummary;

/// What a visitor wants after an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Flow {
    /// Go on decoding.
    #[default]
    Continue,
    /// Return from `feed` now; the next `feed` resumes at the exact next byte.
    Pause,
    /// Stop with [`ErrorKind::Aborted`](crate::ErrorKind::Aborted) (sticky, like any error).
    Abort,
}

/// The file formats the decoder recognises by their magic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// Liberty City / Vice City Stories animation file (`.anim`, magic `mina`).
    Anim,
    /// San Andreas binary item placement (`bnry`).
    IplBinary,
    /// Text item placement (GTA III, Vice City, San Andreas).
    IplText,
    /// GTA III / Vice City animation package, IFP version 1 (also each block of an `ANLF`).
    Anpk,
    /// San Andreas animation package, IFP version 2 with `frameDataSize` and `flags`.
    Anp3,
    /// San Andreas animation package, IFP version 2 without them.
    Anp2,
    /// RenderWare model (`.dff`, a clump stream); its version is the file event's
    /// [`rw_version`](FileInfo::rw_version).
    Dff,
    /// Item (object) definitions, `.ide` (GTA III, Vice City, San Andreas).
    Ide,
}

impl Format {
    /// Every format, in the order of the enum.
    pub const ALL: [Format; 8] = [
        Format::Anim,
        Format::IplBinary,
        Format::IplText,
        Format::Anpk,
        Format::Anp3,
        Format::Anp2,
        Format::Dff,
        Format::Ide,
    ];

    /// The format of a [`name`](Self::name), ASCII case aside (`anp3`, `BNRY`, `text`).
    pub fn named(name: &[u8]) -> Option<Format> {
        Format::ALL
            .into_iter()
            .find(|f| f.name().as_bytes().eq_ignore_ascii_case(name))
    }

    /// Whether the encoders write the format (every one but Stories `.anim`, §9.5).
    pub const fn is_writable(self) -> bool {
        !matches!(self, Format::Anim | Format::Dff)
    }

    /// Whether the format holds animations (else placements or a model).
    pub const fn is_animation(self) -> bool {
        !matches!(
            self,
            Format::IplBinary | Format::IplText | Format::Dff | Format::Ide
        )
    }

    /// Whether the format holds placements.
    pub const fn is_placement(self) -> bool {
        matches!(self, Format::IplBinary | Format::IplText)
    }

    /// The magic as text, as the command-line tool prints it.
    pub const fn name(self) -> &'static str {
        match self {
            Format::Anim => "ANIM",
            Format::IplBinary => "bnry",
            Format::IplText => "text",
            Format::Anpk => "ANPK",
            Format::Anp3 => "ANP3",
            Format::Anp2 => "ANP2",
            Format::Dff => "dff",
            Format::Ide => "ide",
        }
    }
}

/// The file was recognised.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct FileInfo<'a> {
    /// The format, from the magic.
    pub format: Format,
    /// The package name (bytes up to the first NUL), where the format stores one.
    pub name: Option<&'a [u8]>,
    /// Animations the file declares (0 for placement files).
    pub animation_count: u32,
    /// Binary IPL: instances the header declares.
    pub instance_count: Option<u32>,
    /// Binary IPL: car generators the header declares.
    pub car_count: Option<u32>,
    /// ANPK: the block `INFO` chunk's `size` field as stored (the engines read that many bytes
    /// into a fixed buffer).
    pub info_size: Option<u32>,
    /// `ANLF`: the container's `size` field as stored, on each block's `file` event (and on the
    /// one `file` event, with no name, of an `ANLF` of no blocks): an encoder writes the
    /// container back around the blocks (docs/FORMATS.md §9.7).
    pub container_size: Option<u32>,
    /// DFF: the clump's RenderWare library id as stored (`0x1803FFFF`: 3.6.0.3, build
    /// `0xFFFF`; [`rw_version`](crate::rw_version) decodes it).
    pub rw_version: Option<u32>,
    /// The header as stored (`ANP3`/`ANP2`: its 36 bytes; `ANPK`: with the package name;
    /// `bnry`: its 76 bytes; empty where not kept), for an
    /// encoder that writes the file back byte for byte (docs/FORMATS.md §9.7).
    pub raw: &'a [u8],
}

/// An animation begins.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct AnimationInfo<'a> {
    /// 0-based position in the file.
    pub index: u32,
    /// Bytes up to the first NUL.
    pub name: &'a [u8],
    /// Bones the animation declares.
    pub bone_count: u32,
    /// ANP3 only: declared bytes of all the animation's keyframes.
    pub frame_data_size: Option<u32>,
    /// ANP3 only: bit 0 = compressed.
    pub flags: Option<u32>,
    /// Stories only: the clip's length in seconds.
    pub duration: Option<f32>,
    /// ANPK: the animation's `NAME` chunk `size` field as stored.
    pub name_size: Option<u32>,
    /// ANPK: the animation's `DGAN`/`INFO` chunk `size` field as stored.
    pub info_size: Option<u32>,
    /// The animation header as stored (`ANP3`: 36 bytes, `ANP2`: 28; empty where not kept).
    pub raw: &'a [u8],
}

/// A bone (animated object) of the current animation begins.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct BoneInfo<'a> {
    /// 0-based position in its animation.
    pub index: u32,
    /// Bytes up to the first NUL, where the format stores a name; for Stories, the standard
    /// name whose key the bone has, if any (docs/FORMATS.md §3.7).
    pub name: Option<&'a [u8]>,
    /// The bone id as stored (IFP2 keeps −1 for "match by name").
    pub bone_id: Option<i32>,
    /// Stories only: the 32-bit bone key (CRC-32 of the upper-cased bone name; with flag
    /// 0x10 its low 16 bits hold the bone id).
    pub bone_key: Option<u32>,
    /// How the bone's keyframes are stored.
    pub frame_type: FrameType,
    /// Keyframes the bone declares.
    pub frame_count: u32,
    /// ANPK: the `ANIM` chunk's `size` field (44 with a bone id, 48 without).
    pub anim_size: Option<u32>,
    /// The bone header as stored (`ANP3`/`ANP2`: 36 bytes; empty where not kept).
    pub raw: &'a [u8],
}

impl BoneInfo<'_> {
    /// Whether the keyframes carry a translation.
    pub fn has_translation(&self) -> bool {
        self.frame_type.has_translation()
    }

    /// Whether the keyframes carry a scale.
    pub fn has_scale(&self) -> bool {
        self.frame_type.has_scale()
    }
}

/// Whether a stored animation or bone name is the name a caller asks for: ASCII letters
/// compared case-insensitively, as the games compare names, and ASCII whitespace around either
/// ignored, since real files pad names (San Andreas' `ped.ifp` stores ` Pelvis` and ` L Thigh`
/// beside `Normal`). Other bytes compare as they are. The lookups of `Package` and of the
/// bindings use it.
///
/// ```
/// assert!(gtastream::name_matches(b" Pelvis", b"pelvis"));
/// assert!(gtastream::name_matches(b"WALK_civi", b"walk_civi "));
/// assert!(!gtastream::name_matches(b" L Thigh", b"LThigh"));
/// ```
pub fn name_matches(stored: &[u8], wanted: &[u8]) -> bool {
    stored
        .trim_ascii()
        .eq_ignore_ascii_case(wanted.trim_ascii())
}

/// What kind of unit a [`Unit`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum UnitKind {
    /// An animation's header (its `animation` event follows).
    Animation,
    /// A bone's header (its `bone` event follows).
    Bone,
    /// A batch of keyframes (its `keyframes` event follows).
    Keyframes,
    /// ANPK: an empty keyframe chunk after an object of no keyframes (one exporter writes
    /// `K000`): the decoder skips it, the engines read the next object from it. No event.
    EmptyKeyframeChunk,
    /// A placement record (its `instance` or `car` event follows).
    Record,
    /// Text IPL: a line that is not blank, section keywords and `end` included.
    Line,
}

/// Where the decoder reads: reported to [`Visitor::unit`] before the unit's events, for tools
/// that tell where a finding lies (the `check` module's context).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Unit<'a> {
    /// What the unit is.
    pub kind: UnitKind,
    /// Absolute offset of the unit's first byte.
    pub offset: u64,
    /// Text formats: the line's number, from 1.
    pub line: Option<u32>,
    /// [`UnitKind::Line`]: the line without its line break; [`UnitKind::EmptyKeyframeChunk`]:
    /// the chunk header; otherwise empty.
    pub bytes: &'a [u8],
}

impl<'a> Unit<'a> {
    pub(crate) const fn at(kind: UnitKind, offset: u64) -> Self {
        Unit {
            kind,
            offset,
            line: None,
            bytes: &[],
        }
    }
}

/// Receives the decoder's events. Every method defaults to [`Flow::Continue`].
pub trait Visitor {
    /// The file was recognised; always the first event.
    fn file(&mut self, _info: &FileInfo<'_>) -> Flow {
        Flow::Continue
    }
    /// An animation begins.
    fn animation(&mut self, _info: &AnimationInfo<'_>) -> Flow {
        Flow::Continue
    }
    /// A bone of the current animation begins.
    fn bone(&mut self, _info: &BoneInfo<'_>) -> Flow {
        Flow::Continue
    }
    /// Consecutive keyframes of the current bone (never empty).
    fn keyframes(&mut self, _frames: Keyframes<'_>) -> Flow {
        Flow::Continue
    }
    /// The current bone has no more keyframes.
    fn bone_end(&mut self) -> Flow {
        Flow::Continue
    }
    /// The current animation has no more bones.
    fn animation_end(&mut self) -> Flow {
        Flow::Continue
    }
    /// The summary of the animation that ends, just before its `animation_end`: reported only
    /// through the [`Summarize`](crate::Summarize) adaptor (the decoder itself does not count).
    fn animation_summary(&mut self, _summary: &AnimationSummary) -> Flow {
        Flow::Continue
    }
    /// A record: a placed object, a car generator, a line of a text IPL section that has no
    /// event of its own, ... ([`crate::record`] lists the kinds).
    fn record(&mut self, _record: &Record<'_>) -> Flow {
        Flow::Continue
    }
    /// Text IPL: a line that brings no other event (blank, comment, section name, `end`, or a
    /// line read while the decoder still found out whether the text is a placement file:
    /// those come *before* the `file` event), as stored, with its line break. With the
    /// `raw` of the line events, every byte of the text reaches the visitor once, in order,
    /// so that an encoder can write the file back byte for byte (docs/FORMATS.md §9.7).
    fn text_line(&mut self, _raw: &[u8]) -> Flow {
        Flow::Continue
    }
    /// Something the games accept but the format disagrees with; decoding goes on.
    fn warning(&mut self, _warning: Warning) -> Flow {
        Flow::Continue
    }
    /// Bytes after the file's content, as they were fed (the pieces follow the input's cuts;
    /// their concatenation does not): kept so that a file can be written back byte for byte.
    fn trailing(&mut self, _bytes: &[u8]) -> Flow {
        Flow::Continue
    }
    /// The input ended cleanly (reported by [`Decoder::finish`](crate::Decoder::finish)).
    fn end(&mut self) -> Flow {
        Flow::Continue
    }
    /// The decoder reads this unit: before its events, if it has any. Only a position, so
    /// it cannot pause or abort; a unit may be reported again when its step is retried.
    #[inline(always)]
    fn unit(&mut self, _unit: &Unit<'_>) {}
}

/// Implements [`Visitor`] for an adaptor that hands every event on: `$target` is an expression
/// of `$this` (the adaptor, `&mut Self`) giving `Option<&mut impl Visitor>`; `None` drops the
/// event (an event that returns a `Flow` then continues). The one list of the events for the
/// project's pure forwarders (`&mut V`, the command line's, the C archive bridge), so that none
/// forgets one (the command line's had lost `trailing` and `unit`, the C archive bridge
/// `trailing`). Adaptors that act on some events ([`Tracked`](crate::context::Tracked),
/// [`Summarize`](crate::Summarize)) write theirs out; a test holds every adaptor to every event.
///
/// ```
/// use gtastream::Visitor;
///
/// /// Passes the events on while `on` is set.
/// struct Gate<V> {
///     on: bool,
///     inner: V,
/// }
/// gtastream::forward_visitor!([V: Visitor] Gate<V>, |this| this.on.then_some(&mut this.inner));
///
/// #[derive(Default)]
/// struct Ends(u32);
/// impl Visitor for Ends {
///     fn end(&mut self) -> gtastream::Flow {
///         self.0 += 1;
///         gtastream::Flow::Continue
///     }
/// }
/// let mut gate = Gate { on: false, inner: Ends::default() };
/// gate.end();
/// gate.on = true;
/// gate.end();
/// assert_eq!(gate.inner.0, 1);
/// ```
#[macro_export]
macro_rules! forward_visitor {
    ([$($generics:tt)*] $type:ty, |$this:ident| $target:expr) => {
        impl<$($generics)*> $crate::Visitor for $type {
            fn file(&mut self, info: &$crate::FileInfo<'_>) -> $crate::Flow {
                let $this = self;
                $target.map_or($crate::Flow::Continue, |v| v.file(info))
            }
            fn animation(&mut self, info: &$crate::AnimationInfo<'_>) -> $crate::Flow {
                let $this = self;
                $target.map_or($crate::Flow::Continue, |v| v.animation(info))
            }
            fn bone(&mut self, info: &$crate::BoneInfo<'_>) -> $crate::Flow {
                let $this = self;
                $target.map_or($crate::Flow::Continue, |v| v.bone(info))
            }
            fn keyframes(&mut self, frames: $crate::Keyframes<'_>) -> $crate::Flow {
                let $this = self;
                $target.map_or($crate::Flow::Continue, |v| v.keyframes(frames))
            }
            fn bone_end(&mut self) -> $crate::Flow {
                let $this = self;
                $target.map_or($crate::Flow::Continue, |v| v.bone_end())
            }
            fn animation_end(&mut self) -> $crate::Flow {
                let $this = self;
                $target.map_or($crate::Flow::Continue, |v| v.animation_end())
            }
            fn animation_summary(&mut self, summary: &$crate::AnimationSummary) -> $crate::Flow {
                let $this = self;
                $target.map_or($crate::Flow::Continue, |v| v.animation_summary(summary))
            }
            fn record(&mut self, record: &$crate::record::Record<'_>) -> $crate::Flow {
                let $this = self;
                $target.map_or($crate::Flow::Continue, |v| v.record(record))
            }
            fn warning(&mut self, warning: $crate::Warning) -> $crate::Flow {
                let $this = self;
                $target.map_or($crate::Flow::Continue, |v| v.warning(warning))
            }
            fn text_line(&mut self, raw: &[u8]) -> $crate::Flow {
                let $this = self;
                $target.map_or($crate::Flow::Continue, |v| v.text_line(raw))
            }
            fn trailing(&mut self, bytes: &[u8]) -> $crate::Flow {
                let $this = self;
                $target.map_or($crate::Flow::Continue, |v| v.trailing(bytes))
            }
            fn end(&mut self) -> $crate::Flow {
                let $this = self;
                $target.map_or($crate::Flow::Continue, |v| v.end())
            }
            #[inline(always)]
            fn unit(&mut self, unit: &$crate::Unit<'_>) {
                let $this = self;
                if let Some(v) = $target {
                    v.unit(unit)
                }
            }
        }
    };
}

// A visitor lent by reference is one.
crate::forward_visitor!([V: Visitor + ?Sized] &mut V, |this| Some(&mut **this));

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::Tracked;
    use crate::{FrameType, IplInstance, Keyframes, Summarize, WarningKind};

    /// Every format is in `Format::ALL` (the match fails to build when one is added) and is
    /// found again by its name, in any case; likewise every frame type.
    #[test]
    fn every_format_and_frame_type_is_named_once() {
        for (i, format) in Format::ALL.into_iter().enumerate() {
            let position = match format {
                Format::Anim => 0,
                Format::IplBinary => 1,
                Format::IplText => 2,
                Format::Anpk => 3,
                Format::Anp3 => 4,
                Format::Anp2 => 5,
                Format::Dff => 6,
                Format::Ide => 7,
            };
            assert_eq!(position, i);
            let name = format.name().as_bytes();
            assert_eq!(Format::named(name), Some(format));
            assert_eq!(Format::named(&name.to_ascii_lowercase()), Some(format));
            assert_eq!(Format::named(&name.to_ascii_uppercase()), Some(format));
        }
        assert_eq!(Format::named(b"anp4"), None);
        assert!(!Format::Anim.is_writable() && Format::IplText.is_writable());
        for (i, t) in FrameType::ALL.into_iter().enumerate() {
            let position = match t {
                FrameType::Ifp2Rot => 0,
                FrameType::Ifp2RotTrans => 1,
                FrameType::Ifp2PackedRot => 2,
                FrameType::Ifp2PackedRotTrans => 3,
                FrameType::Kr00 => 4,
                FrameType::Krt0 => 5,
                FrameType::Krts => 6,
                FrameType::StoriesRot => 7,
                FrameType::StoriesRotTrans => 8,
            };
            assert_eq!(position, i);
            assert_eq!(FrameType::named(t.name().as_bytes()), Some(t));
        }
        assert_eq!(FrameType::named(b"krt1"), None);
    }

    /// How often each event came, in the trait's order.
    #[derive(Default)]
    struct Seen([u32; 13]);

    impl Seen {
        fn saw(&mut self, event: usize) -> Flow {
            self.0[event] += 1;
            Flow::Continue
        }
    }

    impl Visitor for Seen {
        fn file(&mut self, _: &FileInfo<'_>) -> Flow {
            self.saw(0)
        }
        fn animation(&mut self, _: &AnimationInfo<'_>) -> Flow {
            self.saw(1)
        }
        fn bone(&mut self, _: &BoneInfo<'_>) -> Flow {
            self.saw(2)
        }
        fn keyframes(&mut self, _: Keyframes<'_>) -> Flow {
            self.saw(3)
        }
        fn bone_end(&mut self) -> Flow {
            self.saw(4)
        }
        fn animation_end(&mut self) -> Flow {
            self.saw(5)
        }
        fn animation_summary(&mut self, _: &AnimationSummary) -> Flow {
            self.saw(6)
        }
        fn record(&mut self, _: &Record<'_>) -> Flow {
            self.saw(7)
        }
        fn warning(&mut self, _: Warning) -> Flow {
            self.saw(8)
        }
        fn text_line(&mut self, _: &[u8]) -> Flow {
            self.saw(9)
        }
        fn trailing(&mut self, _: &[u8]) -> Flow {
            self.saw(10)
        }
        fn end(&mut self) -> Flow {
            self.saw(11)
        }
        fn unit(&mut self, _: &Unit<'_>) {
            self.saw(12);
        }
    }

    /// Every event once, in the trait's order.
    fn every_event(v: &mut impl Visitor) {
        let frame = [0u8; 16];
        v.file(&FileInfo {
            format: Format::Anp3,
            name: None,
            animation_count: 1,
            instance_count: None,
            car_count: None,
            info_size: None,
            container_size: None,
            rw_version: None,
            raw: &[],
        });
        v.animation(&AnimationInfo {
            index: 0,
            name: b"walk",
            bone_count: 1,
            frame_data_size: None,
            flags: None,
            duration: None,
            name_size: None,
            info_size: None,
            raw: &[],
        });
        v.bone(&BoneInfo {
            index: 0,
            name: None,
            bone_id: None,
            bone_key: None,
            frame_type: FrameType::Ifp2PackedRotTrans,
            frame_count: 1,
            anim_size: None,
            raw: &[],
        });
        v.keyframes(Keyframes::new(FrameType::Ifp2PackedRotTrans, &frame, 0.0));
        v.bone_end();
        v.animation_end();
        v.animation_summary(&AnimationSummary::default());
        v.record(&Record::Instance(IplInstance::default()));
        v.warning(Warning {
            kind: WarningKind::TrailingData,
            offset: 0,
        });
        v.text_line(b"# a comment\n");
        v.trailing(b"x");
        v.end();
        v.unit(&Unit::at(UnitKind::Line, 0));
    }

    /// The adaptors hand every event on (a forgotten one falls to the trait's default, which
    /// drops it silently: the command line's forwarder once lost `trailing` and `unit`).
    #[test]
    fn adaptors_hand_on_every_event() {
        struct Forward(Seen);
        crate::forward_visitor!([] Forward, |this| Some(&mut this.0));
        let mut forward = Forward(Seen::default());
        every_event(&mut forward);
        assert_eq!(forward.0 .0, [1; 13], "forward_visitor!");

        let mut seen = Seen::default();
        every_event(&mut &mut seen);
        assert_eq!(seen.0, [1; 13], "&mut V");

        let mut tracked = Tracked::new(Seen::default());
        every_event(&mut tracked);
        assert_eq!(tracked.inner.0, [1; 13], "Tracked");

        // Summarize adds the summary of the animation that ends.
        let mut summarize = Summarize::new(Seen::default());
        every_event(&mut summarize);
        let mut expected = [1; 13];
        expected[6] = 2;
        assert_eq!(summarize.inner.0, expected, "Summarize");

        // A `None` target drops the event.
        struct Gate {
            open: bool,
            seen: Seen,
        }
        crate::forward_visitor!([] Gate, |this| this.open.then_some(&mut this.seen));
        let mut gate = Gate {
            open: false,
            seen: Seen::default(),
        };
        every_event(&mut gate);
        assert_eq!(gate.seen.0, [0; 13]);
    }
}

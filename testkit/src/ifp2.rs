//! IFP2 (ANP3/ANP2): fixture writer, reference decoder, and the IFP2 tests' ways of running
//! the kit's driver.
//!
//! - [`Writer`]: a little-endian byte writer for hand-made fixtures.
//! - [`FileSpec`] / [`AnimSpec`] / [`BoneSpec`] / [`Frame`]: an IFP2 (ANP3/ANP2) fixture described
//!   as values and written with [`Writer`]; every redundant field can be overridden to make the
//!   sloppy files real tools write.
//! - [`reference`]: a small whole-buffer decoder written from docs/FORMATS.md §2 alone, independent of
//!   the crate, that says which events (with which offsets) a correct decoder must report and
//!   how many bytes each one needs.
//! - [`decode_chunks`] / [`log_whole`] / [`log_split`] / [`log_bytewise`]: the kit's driver
//!   ([`crate::driver`]) over given chunks, logging with the kit's [`Recorder`] ([`crate::log`]).

use gtastream::{Error, ErrorKind, Format, FrameType, Keyframe, RawFrame, WarningKind};

use crate::driver::{drive_cut, Cut};

/// Sizes of the IFP2 units (docs/FORMATS.md §2).
pub const NAME: usize = 24;
pub const FILE_HEADER: usize = 36;
pub const ANIM_HEADER_ANP3: usize = 36;
pub const ANIM_HEADER_ANP2: usize = 28;
pub const BONE_HEADER: usize = 36;

/// Garbage that exporters leave after the NUL of a name field.
pub const GARBAGE: u8 = 0xCD;

/// Stored size of one keyframe of IFP2 type `t` (None for an undefined type).
pub fn frame_size(t: u32) -> Option<usize> {
    match t {
        1 => Some(20),
        2 => Some(32),
        3 => Some(10),
        4 => Some(16),
        _ => None,
    }
}

pub use crate::bytes::Writer;

// ------------------------------------------------------------------------------------------
// Fixture model

/// One stored keyframe. Which fields are written depends on the bone's frame type.
#[derive(Clone, Copy, Debug)]
pub enum Frame {
    /// Types 1 and 2.
    Float { q: [f32; 4], t: f32, tr: [f32; 3] },
    /// Types 3 and 4.
    Packed { q: [i16; 4], t: i16, tr: [i16; 3] },
}

/// Type 1 frame.
pub fn f1(q: [f32; 4], t: f32) -> Frame {
    Frame::Float { q, t, tr: [0.0; 3] }
}
/// Type 2 frame.
pub fn f2(q: [f32; 4], t: f32, tr: [f32; 3]) -> Frame {
    Frame::Float { q, t, tr }
}
/// Type 3 frame.
pub fn p3(q: [i16; 4], t: i16) -> Frame {
    Frame::Packed { q, t, tr: [0; 3] }
}
/// Type 4 frame.
pub fn p4(q: [i16; 4], t: i16, tr: [i16; 3]) -> Frame {
    Frame::Packed { q, t, tr }
}

#[derive(Clone, Debug)]
pub struct BoneSpec {
    pub name: Vec<u8>,
    pub frame_type: u32,
    /// `None`: the number of frames written.
    pub frame_count: Option<u32>,
    pub bone_id: i32,
    pub frames: Vec<Frame>,
}

impl BoneSpec {
    pub fn new(name: &str, frame_type: u32, bone_id: i32, frames: Vec<Frame>) -> Self {
        BoneSpec {
            name: name.as_bytes().to_vec(),
            frame_type,
            frame_count: None,
            bone_id,
            frames,
        }
    }

    /// A bone of packed rotation keys (type 3, bone id 0), each the identity rotation, at
    /// these tick times.
    pub fn packed(name: &str, times: &[i16]) -> Self {
        let identity = [0, 0, 0, 4096];
        let frames = times.iter().map(|&t| p3(identity, t)).collect();
        BoneSpec::new(name, 3, 0, frames)
    }

    pub fn count(mut self, n: u32) -> Self {
        self.frame_count = Some(n);
        self
    }
}

#[derive(Clone, Debug)]
pub struct AnimSpec {
    pub name: Vec<u8>,
    /// `None`: the number of bones written.
    pub bone_count: Option<u32>,
    /// ANP3 only. `None`: the correct value.
    pub frame_data_size: Option<u32>,
    /// ANP3 only.
    pub flags: u32,
    pub bones: Vec<BoneSpec>,
}

impl AnimSpec {
    pub fn new(name: &str, bones: Vec<BoneSpec>) -> Self {
        AnimSpec {
            name: name.as_bytes().to_vec(),
            bone_count: None,
            frame_data_size: None,
            flags: 1,
            bones,
        }
    }

    pub fn flags(mut self, flags: u32) -> Self {
        self.flags = flags;
        self
    }

    pub fn frame_data_size(mut self, v: u32) -> Self {
        self.frame_data_size = Some(v);
        self
    }

    pub fn count(mut self, n: u32) -> Self {
        self.bone_count = Some(n);
        self
    }

    /// Keyframe bytes of the bones as written (what `frameDataSize` should say).
    pub fn written_frame_bytes(&self) -> usize {
        self.bones
            .iter()
            .map(|b| b.frames.len() * frame_size(b.frame_type).unwrap_or(0))
            .sum()
    }
}

#[derive(Clone, Debug)]
pub struct FileSpec {
    pub magic: [u8; 4],
    /// `None`: the correct value (content end − 8).
    pub size: Option<u32>,
    pub name: Vec<u8>,
    /// `None`: the number of animations written.
    pub animation_count: Option<u32>,
    pub animations: Vec<AnimSpec>,
    pub trailing: Vec<u8>,
    /// What fills every name field after its NUL.
    pub fill: u8,
}

impl FileSpec {
    pub fn anp3(name: &str, animations: Vec<AnimSpec>) -> Self {
        FileSpec {
            magic: *b"ANP3",
            size: None,
            name: name.as_bytes().to_vec(),
            animation_count: None,
            animations,
            trailing: Vec::new(),
            fill: GARBAGE,
        }
    }

    pub fn anp2(name: &str, animations: Vec<AnimSpec>) -> Self {
        FileSpec {
            magic: *b"ANP2",
            ..FileSpec::anp3(name, animations)
        }
    }

    pub fn size(mut self, size: u32) -> Self {
        self.size = Some(size);
        self
    }

    pub fn count(mut self, n: u32) -> Self {
        self.animation_count = Some(n);
        self
    }

    pub fn trailing(mut self, bytes: &[u8]) -> Self {
        self.trailing = bytes.to_vec();
        self
    }

    pub fn fill(mut self, fill: u8) -> Self {
        self.fill = fill;
        self
    }

    fn anp3_layout(&self) -> bool {
        &self.magic != b"ANP2"
    }

    pub fn build(&self) -> Vec<u8> {
        let mut w = Writer::new();
        w.bytes(&self.magic).u32(0).name(&self.name, self.fill);
        w.u32(self.animation_count.unwrap_or(self.animations.len() as u32));
        for anim in &self.animations {
            w.name(&anim.name, self.fill)
                .u32(anim.bone_count.unwrap_or(anim.bones.len() as u32));
            if self.anp3_layout() {
                let fds = anim
                    .frame_data_size
                    .unwrap_or(anim.written_frame_bytes() as u32);
                w.u32(fds).u32(anim.flags);
            }
            for bone in &anim.bones {
                w.name(&bone.name, self.fill)
                    .u32(bone.frame_type)
                    .u32(bone.frame_count.unwrap_or(bone.frames.len() as u32))
                    .i32(bone.bone_id);
                for frame in &bone.frames {
                    write_frame(&mut w, bone.frame_type, frame);
                }
            }
        }
        let size = self.size.unwrap_or(w.len() as u32 - 8);
        w.patch_u32(4, size);
        w.bytes(&self.trailing);
        w.out
    }
}

fn write_frame(w: &mut Writer, frame_type: u32, frame: &Frame) {
    match (frame_type, frame) {
        (1 | 2, Frame::Float { q, t, tr }) => {
            for v in q {
                w.f32(*v);
            }
            w.f32(*t);
            if frame_type == 2 {
                for v in tr {
                    w.f32(*v);
                }
            }
        }
        (3 | 4, Frame::Packed { q, t, tr }) => {
            for v in q {
                w.i16(*v);
            }
            w.i16(*t);
            if frame_type == 4 {
                for v in tr {
                    w.i16(*v);
                }
            }
        }
        _ => panic!("fixture bug: frame {frame:?} does not fit type {frame_type}"),
    }
}

// ------------------------------------------------------------------------------------------
// The event log and the driver: the kit's ([`crate::log`], [`crate::driver`])

pub use crate::log::{keyframes, warnings, Bits, Ev, Policy, Recorder};

/// What one decode did.
#[derive(Debug)]
pub struct Run {
    /// The log, ending with `End` or `Error`.
    pub events: Vec<Ev>,
    /// `Paused` answers from `feed`.
    pub pauses: usize,
    /// Visitor calls.
    pub calls: usize,
    /// Keyframe batches.
    pub batches: usize,
    /// Total bytes fed when `feed` first answered `Done`.
    pub done_at: Option<u64>,
}

/// Cuts `data` at the given increasing offsets (duplicates give empty chunks).
pub fn chunks_at<'a>(data: &'a [u8], cuts: &[usize]) -> Vec<&'a [u8]> {
    let mut out = Vec::new();
    let mut from = 0;
    for &c in cuts {
        assert!(from <= c && c <= data.len(), "cuts must increase");
        out.push(&data[from..c]);
        from = c;
    }
    out.push(&data[from..]);
    out
}

/// Feeds the chunks in order (empty ones too) with the kit's driver, which re-feeds the
/// unconsumed rest after each pause, finishes, and checks the driver-level contract
/// ([`crate::driver::drive_with`]). An error ends the log as `Ev::Error`.
pub fn decode_chunks(chunks: &[&[u8]], policy: Policy) -> Run {
    let data = chunks.concat();
    // (Sizes in turn: they add up to the data, so each chunk is fed once.)
    let sizes = Cut::Sizes(chunks.iter().map(|c| c.len()).collect());
    let out = drive_cut(&data, &sizes, policy, true);
    Run {
        events: out.logged(),
        pauses: out.pauses.len(),
        calls: out.calls,
        batches: out.batches,
        done_at: out.done_at,
    }
}

/// The log of decoding `data` cut at `cuts`.
pub fn log_split(data: &[u8], cuts: &[usize]) -> Vec<Ev> {
    decode_chunks(&chunks_at(data, cuts), Policy::Continue).events
}

/// The log of decoding `data` in one piece.
pub fn log_whole(data: &[u8]) -> Vec<Ev> {
    log_split(data, &[])
}

/// The log of decoding `data` one byte at a time.
pub fn log_bytewise(data: &[u8]) -> Vec<Ev> {
    drive_cut(data, &Cut::bytewise(), Policy::Continue, true).logged()
}

// ------------------------------------------------------------------------------------------
// Reference decoder (docs/FORMATS.md §2, whole buffer, written independently of the crate)

/// What a correct decoder reports for a whole input.
#[derive(Clone, Debug, Default)]
pub struct Reference {
    /// Every event with the number of input bytes it needs before it can be reported.
    pub events: Vec<(u64, Ev)>,
    /// The units (start, length) read, in order; they tile `[0, end of what was read)`.
    pub units: Vec<(u64, u64)>,
    /// `Ok(end of content)` or the error with the bytes it needs (`u64::MAX`: only at finish).
    pub outcome: Option<Result<u64, (Error, u64)>>,
}

impl Reference {
    /// The full log: events, then `End` or `Error`.
    pub fn log(&self) -> Vec<Ev> {
        let mut log: Vec<Ev> = self.events.iter().map(|(_, e)| e.clone()).collect();
        match self.outcome.expect("reference finished") {
            Ok(_) => log.push(Ev::End),
            Err((e, _)) => log.push(Ev::Error(e.kind, e.offset)),
        }
        log
    }

    /// The end of the content, if the input decodes.
    pub fn content_end(&self) -> Option<u64> {
        self.outcome.expect("reference finished").ok()
    }

    /// The log for the first `cut` bytes of the same input followed by `finish`.
    pub fn log_truncated(&self, cut: u64) -> Vec<Ev> {
        let mut log: Vec<Ev> = self
            .events
            .iter()
            .filter(|(need, _)| *need <= cut)
            .map(|(_, e)| e.clone())
            .collect();
        match self.outcome.expect("reference finished") {
            Err((e, need)) if need <= cut => log.push(Ev::Error(e.kind, e.offset)),
            Ok(end) if end <= cut => log.push(Ev::End),
            _ if cut == 0 => log.push(Ev::error(ErrorKind::Empty, 0)),
            _ => log.push(Ev::error(ErrorKind::Truncated, self.unit_containing(cut))),
        }
        log
    }

    /// Start of the unit holding byte `at` (a cut at a unit boundary lies in the next unit).
    pub fn unit_containing(&self, at: u64) -> u64 {
        self.units
            .iter()
            .find(|(start, len)| *start <= at && at < start + len)
            .map(|(start, _)| *start)
            .unwrap_or_else(|| panic!("no unit holds byte {at}"))
    }
}

struct Ref<'a> {
    data: &'a [u8],
    pos: usize,
    r: Reference,
}

/// Marker: the reference stopped (error or missing bytes); the outcome is set.
struct Stop;

const LIMIT: u64 = 1 << 32;

/// Bones of an IFP2 animation whose names the duplicate check keeps (the crate's bound).
pub const IFP2_NAMED_BONES: usize = 20;

impl<'a> Ref<'a> {
    /// Reads the next unit of `len` bytes.
    fn unit(&mut self, len: usize) -> Result<(u64, &'a [u8]), Stop> {
        let start = self.pos;
        self.r.units.push((start as u64, len as u64));
        if self.data.len() - start < len {
            let e = Error {
                kind: ErrorKind::Truncated,
                offset: start as u64,
            };
            self.r.outcome = Some(Err((e, u64::MAX)));
            return Err(Stop);
        }
        self.pos += len;
        Ok((start as u64, &self.data[start..start + len]))
    }

    fn emit(&mut self, ev: Ev) {
        self.r.events.push((self.pos as u64, ev));
    }

    fn fail(&mut self, kind: ErrorKind, offset: u64, need: u64) -> Stop {
        self.r.outcome = Some(Err((Error { kind, offset }, need)));
        Stop
    }
}

fn le32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn le16(b: &[u8], at: usize) -> i16 {
    i16::from_le_bytes(b[at..at + 2].try_into().unwrap())
}

fn lef32(b: &[u8], at: usize) -> f32 {
    f32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn cname(field: &[u8]) -> Vec<u8> {
    field.split(|&b| b == 0).next().unwrap().to_vec()
}

/// Decodes one stored keyframe as docs/FORMATS.md §2 says.
pub fn reference_frame(t: u32, rec: &[u8]) -> (Keyframe, Option<RawFrame>) {
    let mut k = Keyframe::default();
    match t {
        1 | 2 => {
            k.rotation = [lef32(rec, 0), lef32(rec, 4), lef32(rec, 8), lef32(rec, 12)];
            k.time = lef32(rec, 16);
            if t == 2 {
                k.translation = [lef32(rec, 20), lef32(rec, 24), lef32(rec, 28)];
            }
            (k, None)
        }
        _ => {
            let q = [le16(rec, 0), le16(rec, 2), le16(rec, 4), le16(rec, 6)];
            let time = le16(rec, 8);
            let tr = if t == 4 {
                [le16(rec, 10), le16(rec, 12), le16(rec, 14)]
            } else {
                [0; 3]
            };
            k.rotation = q.map(|v| v as f32 / 4096.0);
            k.time = time as f32 / 60.0;
            k.translation = tr.map(|v| v as f32 / 1024.0);
            let raw = RawFrame {
                rotation: q,
                time,
                translation: tr,
            };
            (k, Some(raw))
        }
    }
}

fn frame_type_of(t: u32) -> FrameType {
    match t {
        1 => FrameType::Ifp2Rot,
        2 => FrameType::Ifp2RotTrans,
        3 => FrameType::Ifp2PackedRot,
        4 => FrameType::Ifp2PackedRotTrans,
        _ => unreachable!(),
    }
}

/// Whether `data` starts like a format other than IFP2 that the decoder also reads (ANPK,
/// ANLF, Stories, binary IPL, or four text bytes: a text IPL): such inputs are outside what
/// the reference decodes.
pub fn other_format(data: &[u8]) -> bool {
    let text = |bytes: &[u8]| {
        bytes
            .iter()
            .all(|&b| matches!(b, b'\t' | b'\n' | b'\r' | 0x20..=0x7e))
    };
    match data.get(..4) {
        None => !data.is_empty() && !cut_magic(data) && text(data),
        Some(b"ANP3" | b"ANP2") => false,
        Some(b"ANPK" | b"ANLF" | b"mina" | b"bnry") => true,
        Some(magic) => text(magic),
    }
}

/// The magics of every format the decoder reads.
pub const MAGICS: [&[u8; 4]; 6] = [b"ANP3", b"ANP2", b"ANPK", b"ANLF", b"mina", b"bnry"];

/// Whether `data` is a proper, non-empty prefix of a magic: a file cut inside its magic.
pub fn cut_magic(data: &[u8]) -> bool {
    !data.is_empty() && data.len() < 4 && MAGICS.iter().any(|m| m.starts_with(data))
}

/// The reference decoding of a whole input.
pub fn reference(data: &[u8]) -> Reference {
    let mut s = Ref {
        data,
        pos: 0,
        r: Reference::default(),
    };
    assert!(!other_format(data), "the reference decodes IFP2 only");
    let _ = reference_body(&mut s);
    s.r
}

fn reference_body(s: &mut Ref<'_>) -> Result<(), Stop> {
    // The magic is judged as soon as its 4 bytes are there, inside the 36-byte header unit.
    let anp3 = match s.data.get(..4) {
        Some(b"ANP3") => true,
        Some(b"ANP2") => false,
        Some(_) => {
            s.r.units.push((0, FILE_HEADER as u64));
            return Err(s.fail(ErrorKind::BadMagic, 0, 4));
        }
        // Nothing at all is its own error; fewer than 4 bytes: a cut magic is truncated;
        // bytes that begin no format are a bad magic (known only at the end of input).
        None if s.data.is_empty() => {
            s.r.units.push((0, FILE_HEADER as u64));
            return Err(s.fail(ErrorKind::Empty, 0, u64::MAX));
        }
        None if cut_magic(s.data) => {
            s.unit(FILE_HEADER)?;
            unreachable!()
        }
        None => {
            s.r.units.push((0, FILE_HEADER as u64));
            return Err(s.fail(ErrorKind::BadMagic, 0, u64::MAX));
        }
    };
    let (format, anim_header) = if anp3 {
        (Format::Anp3, ANIM_HEADER_ANP3)
    } else {
        (Format::Anp2, ANIM_HEADER_ANP2)
    };
    let (_, h) = s.unit(FILE_HEADER)?;
    let size = le32(h, 4);
    let name = cname(&h[8..32]);
    let animations = le32(h, 32);
    if FILE_HEADER as u64 + animations as u64 * anim_header as u64 > LIMIT {
        return Err(s.fail(ErrorKind::CountTooLarge, 0, FILE_HEADER as u64));
    }
    s.emit(Ev::File {
        format,
        name: Some(name),
        animation_count: animations,
        instance_count: None,
        car_count: None,
    });
    for a in 0..animations {
        let (at, h) = s.unit(anim_header)?;
        let end = at + anim_header as u64;
        let bones = le32(h, 24);
        let (fds, flags) = if anp3 {
            (Some(le32(h, 28)), Some(le32(h, 32)))
        } else {
            (None, None)
        };
        if end + bones as u64 * BONE_HEADER as u64 > LIMIT {
            return Err(s.fail(ErrorKind::CountTooLarge, at, end));
        }
        s.emit(Ev::Animation {
            index: a,
            name: cname(&h[..24]),
            bone_count: bones,
            frame_data_size: fds,
            flags,
            duration: None,
        });
        let mut frame_bytes: u64 = 0;
        let mut packed = false;
        // The names of the animation's first bones, folded to lower case.
        let mut names: Vec<Vec<u8>> = Vec::new();
        for b in 0..bones {
            let (bat, h) = s.unit(BONE_HEADER)?;
            let bend = bat + BONE_HEADER as u64;
            let t = le32(h, 24);
            let count = le32(h, 28);
            let id = i32::from_le_bytes(h[32..36].try_into().unwrap());
            let Some(fsize) = frame_size(t) else {
                return Err(s.fail(ErrorKind::UnknownFrameType, bat, bend));
            };
            if bend + count as u64 * 10 > LIMIT {
                return Err(s.fail(ErrorKind::CountTooLarge, bat, bend));
            }
            frame_bytes += count as u64 * fsize as u64;
            packed |= t >= 3;
            let name = cname(&h[..24]).to_ascii_lowercase();
            if !name.is_empty() {
                if names.contains(&name) {
                    s.emit(Ev::warning(WarningKind::DuplicateBone, bat));
                } else if names.len() < IFP2_NAMED_BONES {
                    names.push(name);
                }
            }
            s.emit(Ev::Bone {
                index: b,
                name: Some(cname(&h[..24])),
                bone_id: Some(id),
                bone_key: None,
                frame_type: frame_type_of(t),
                frame_count: count,
            });
            let mut previous: Option<f32> = None;
            let mut warned = false;
            for _ in 0..count {
                let (fat, rec) = s.unit(fsize)?;
                let stored = if t >= 3 {
                    le16(rec, 8) as f32
                } else {
                    lef32(rec, 16)
                };
                if !warned && previous.is_some_and(|p| stored < p) {
                    warned = true;
                    s.emit(Ev::warning(WarningKind::TimeBackwards, fat));
                }
                previous = Some(stored);
                let (frame, raw) = reference_frame(t, rec);
                s.emit(Ev::Frame {
                    frame_type: frame_type_of(t),
                    bytes: rec.to_vec(),
                    frame: Bits(frame),
                    raw,
                    exact: None,
                });
            }
            s.emit(Ev::BoneEnd);
        }
        if anp3 {
            if fds != Some(frame_bytes as u32) || frame_bytes > u32::MAX as u64 {
                s.emit(Ev::warning(WarningKind::FrameDataSizeMismatch, at + 28));
            }
            if flags.unwrap() & 1 == 0 && packed {
                s.emit(Ev::warning(WarningKind::CompressedFlagClear, at + 32));
            }
        }
        s.emit(Ev::AnimationEnd);
    }
    let end = s.pos as u64;
    if size as u64 + 8 != end {
        s.emit(Ev::warning(WarningKind::SizeMismatch, 4));
    }
    // After the content, zero bytes are archive padding and say nothing; the first other byte
    // is stale data, reported once, as soon as it has arrived.
    if let Some(i) = s.data[s.pos..].iter().position(|&b| b != 0) {
        let at = end + i as u64;
        s.r.events
            .push((at + 1, Ev::warning(WarningKind::TrailingData, at)));
    }
    s.r.outcome = Some(Ok(end));
    Ok(())
}

// ------------------------------------------------------------------------------------------
// The fixtures every invariance test runs over

/// Packed quaternion helpers: value × 4096.
pub const ONE: i16 = 4096;
pub const HALF: i16 = 2048;

/// Named fixtures: valid files, sloppy files, and files that must fail.
pub fn fixtures() -> Vec<(&'static str, Vec<u8>)> {
    let mut v = Vec::new();
    for (name, spec) in valid_specs().into_iter().chain(sloppy_specs()) {
        v.push((name, spec.build()));
    }
    v.extend(error_fixtures());
    v
}

/// Well-formed files (no warnings).
pub fn valid_specs() -> Vec<(&'static str, FileSpec)> {
    vec![
        ("anp3_packed", anp3_packed()),
        ("anp3_all_types", anp3_all_types()),
        ("anp3_multi", anp3_multi()),
        ("anp3_empty", FileSpec::anp3("empty", vec![])),
        ("anp2_all_types", anp2_all_types()),
        (
            "anp2_zero_bones",
            FileSpec::anp2(
                "z",
                vec![
                    AnimSpec::new("none", vec![]),
                    AnimSpec::new(
                        "one",
                        vec![BoneSpec::new("b", 3, 7, vec![p3([0, 0, 0, ONE], 0)])],
                    ),
                ],
            ),
        ),
    ]
}

/// One animation: a type 4 root (3 frames) and a type 3 bone with id −1 (2 frames).
pub fn anp3_packed() -> FileSpec {
    FileSpec::anp3(
        "ped",
        vec![AnimSpec::new(
            "walk_civi",
            vec![
                BoneSpec::new(
                    "Root",
                    4,
                    0,
                    vec![
                        p4([0, 0, 0, ONE], 0, [0, 0, 1024]),
                        p4([-HALF, 100, -1, 4000], 30, [512, -512, 1000]),
                        p4([i16::MIN, i16::MAX, 0, 1], 60, [i16::MIN, i16::MAX, -1]),
                    ],
                ),
                BoneSpec::new(
                    "L Thigh",
                    3,
                    -1,
                    vec![p3([1, 2, 3, 4], 0), p3([-1, -2, -3, -4], 10)],
                ),
            ],
        )],
    )
}

/// Every frame type, a bone without frames, and float values that are not round.
pub fn anp3_all_types() -> FileSpec {
    FileSpec::anp3(
        "types",
        vec![
            AnimSpec::new(
                "all",
                vec![
                    BoneSpec::new(
                        "one",
                        1,
                        1,
                        vec![
                            f1([0.1, -0.2, 0.3, 0.9], 0.0),
                            f1([-0.0, f32::MIN_POSITIVE, 1e-3, -1.0], 0.5),
                        ],
                    ),
                    BoneSpec::new(
                        "two",
                        2,
                        2,
                        vec![
                            f2([0.0, 0.0, 0.0, 1.0], 0.0, [1.25, -3.5, 1e6]),
                            f2([0.5, 0.5, 0.5, 0.5], 1.0 / 3.0, [-0.001, 0.0, 7.0]),
                        ],
                    ),
                    BoneSpec::new(
                        "three",
                        3,
                        3,
                        vec![p3([0, 0, 0, ONE], 0), p3([7, -7, 9, -9], 1)],
                    ),
                    BoneSpec::new(
                        "four",
                        4,
                        4,
                        vec![
                            p4([0, 0, 0, ONE], 0, [1, -1, 1024]),
                            p4([5, 6, 7, 8], 2, [3, 2, 1]),
                        ],
                    ),
                ],
            ),
            AnimSpec::new(
                "sparse",
                vec![
                    BoneSpec::new("no frames", 3, 9, vec![]),
                    BoneSpec::new("float", 1, -1, vec![f1([1.0, 0.0, 0.0, 0.0], 2.0)]),
                ],
            )
            .flags(1),
        ],
    )
}

/// Several animations, one without bones, names using all 24 bytes and high bytes.
pub fn anp3_multi() -> FileSpec {
    let mut full = BoneSpec::new("", 3, 12, vec![p3([1, 1, 1, 1], 5)]);
    full.name = b"ABCDEFGHIJKLMNOPQRSTUVWX".to_vec();
    let mut high = AnimSpec::new("", vec![full]);
    high.name = b"caf\xe9 \xff".to_vec();
    FileSpec::anp3(
        "multi",
        vec![
            AnimSpec::new(
                "first",
                vec![BoneSpec::new(
                    "a",
                    4,
                    1,
                    vec![p4([0, 0, 0, ONE], 0, [0, 0, 0])],
                )],
            ),
            AnimSpec::new("empty", vec![]).flags(0),
            high,
            AnimSpec::new(
                "last",
                vec![
                    BoneSpec::new("x", 3, 2, vec![p3([0, 0, 0, ONE], 0); 5]),
                    BoneSpec::new("y", 3, 3, vec![p3([0, 0, ONE, 0], 3); 2]),
                ],
            ),
        ],
    )
}

/// ANP2: every frame type, 28-byte animation headers.
pub fn anp2_all_types() -> FileSpec {
    FileSpec::anp2(
        "anp2",
        vec![
            AnimSpec::new(
                "floats",
                vec![
                    BoneSpec::new("r", 1, 1, vec![f1([0.0, 0.0, 0.0, 1.0], 0.0)]),
                    BoneSpec::new(
                        "rt",
                        2,
                        -1,
                        vec![f2([0.0, 1.0, 0.0, 0.0], 0.25, [1.0, 2.0, 3.0])],
                    ),
                ],
            ),
            AnimSpec::new(
                "packed",
                vec![
                    BoneSpec::new(
                        "p",
                        3,
                        5,
                        vec![p3([0, 0, 0, ONE], 0), p3([0, 0, HALF, HALF], 6)],
                    ),
                    BoneSpec::new("pt", 4, 6, vec![p4([0, 0, 0, ONE], 0, [-1024, 0, 2048])]),
                ],
            ),
        ],
    )
}

/// An animation with two `Root` bones, as a real Vice City `ped.ifp` has (here in ANP3).
pub fn duplicate_bone() -> FileSpec {
    FileSpec::anp3(
        "ped",
        vec![AnimSpec::new(
            "dup",
            vec![
                BoneSpec::new("Root", 3, 0, vec![p3([0, 0, 0, ONE], 0)]),
                BoneSpec::new("Pelvis", 3, 1, vec![p3([0, 0, 0, ONE], 0)]),
                BoneSpec::new("Root", 4, 0, vec![p4([0, 0, 0, ONE], 0, [1, 2, 3])]),
            ],
        )
        .flags(1)],
    )
}

/// Files real tools leave behind: each decodes, with warnings.
pub fn sloppy_specs() -> Vec<(&'static str, FileSpec)> {
    let correct_size = anp3_packed().build().len() as u32 - 8;
    vec![
        ("size_small", anp3_packed().size(correct_size - 10)),
        ("size_large", anp3_packed().size(correct_size + 100)),
        ("size_zero", anp3_packed().size(0)),
        ("trailing", anp3_packed().trailing(&trailing_animation())),
        ("frame_data_size_wrong", frame_data_size_wrong()),
        ("flags_clear_packed", flags_clear_packed()),
        ("flags_clear_float", flags_clear_float()),
        ("time_backwards", time_backwards()),
        ("duplicate_bone", duplicate_bone()),
        ("all_oddities", all_oddities()),
        (
            "anp2_sloppy",
            anp2_all_types().size(3).trailing(b"\x01\x02\x03"),
        ),
    ]
}

/// Trailing bytes that would be a whole animation if they were parsed.
pub fn trailing_animation() -> Vec<u8> {
    let mut w = Writer::new();
    w.name(b"stale", 0).u32(1).u32(10).u32(1);
    w.name(b"ghost", 0).u32(3).u32(1).i32(0);
    w.i16(0).i16(0).i16(0).i16(ONE).i16(0);
    w.out
}

pub fn frame_data_size_wrong() -> FileSpec {
    FileSpec::anp3(
        "fds",
        vec![
            AnimSpec::new(
                "right",
                vec![BoneSpec::new("a", 3, 0, vec![p3([0, 0, 0, ONE], 0)])],
            ),
            AnimSpec::new(
                "wrong",
                vec![BoneSpec::new(
                    "a",
                    4,
                    0,
                    vec![p4([0, 0, 0, ONE], 0, [0; 3])],
                )],
            )
            .frame_data_size(10),
            AnimSpec::new("zero bones wrong", vec![]).frame_data_size(4),
        ],
    )
}

pub fn flags_clear_packed() -> FileSpec {
    FileSpec::anp3(
        "flags",
        vec![
            AnimSpec::new(
                "mixed",
                vec![
                    BoneSpec::new("f", 1, 0, vec![f1([0.0, 0.0, 0.0, 1.0], 0.0)]),
                    BoneSpec::new("p", 3, 1, vec![p3([0, 0, 0, ONE], 0)]),
                ],
            )
            .flags(0),
            // Bits other than bit 0 set, bit 0 clear: still a warning.
            AnimSpec::new(
                "other bits",
                vec![BoneSpec::new(
                    "p",
                    4,
                    1,
                    vec![p4([0, 0, 0, ONE], 0, [0; 3])],
                )],
            )
            .flags(0xFFFF_FFFE),
            // A packed bone without frames still makes the animation packed.
            AnimSpec::new("no frames", vec![BoneSpec::new("p", 3, 1, vec![])]).flags(0),
        ],
    )
}

pub fn flags_clear_float() -> FileSpec {
    FileSpec::anp3(
        "floats",
        vec![AnimSpec::new(
            "float only",
            vec![
                BoneSpec::new("r", 1, 0, vec![f1([0.0, 0.0, 0.0, 1.0], 0.0)]),
                BoneSpec::new("rt", 2, 1, vec![f2([0.0, 0.0, 0.0, 1.0], 0.1, [0.0; 3])]),
            ],
        )
        .flags(0)],
    )
}

pub fn time_backwards() -> FileSpec {
    let q = [0, 0, 0, ONE];
    FileSpec::anp3(
        "time",
        vec![AnimSpec::new(
            "back",
            vec![
                // Goes back at frame 2 and again at frame 3: one warning, before frame 2.
                BoneSpec::new(
                    "twice",
                    3,
                    0,
                    vec![p3(q, 0), p3(q, 10), p3(q, 5), p3(q, 3), p3(q, 20)],
                ),
                // Equal times are not backwards.
                BoneSpec::new("equal", 4, 1, vec![p4(q, 7, [0; 3]), p4(q, 7, [0; 3])]),
                // Back at frame 1 (the first frame can never be backwards).
                BoneSpec::new("second", 3, 2, vec![p3(q, 100), p3(q, -100)]),
                // Floats: compared as stored.
                BoneSpec::new(
                    "float",
                    2,
                    3,
                    vec![
                        f2([0.0, 0.0, 0.0, 1.0], 0.5, [0.0; 3]),
                        f2([0.0, 0.0, 0.0, 1.0], 0.25, [0.0; 3]),
                        f2([0.0, 0.0, 0.0, 1.0], 0.125, [0.0; 3]),
                    ],
                ),
                // A new bone starts afresh: its first frame may be earlier than the last one.
                BoneSpec::new("fresh", 3, 4, vec![p3(q, 0), p3(q, 1)]),
            ],
        )],
    )
}

pub fn all_oddities() -> FileSpec {
    let q = [0, 0, 0, ONE];
    FileSpec::anp3(
        "odd",
        vec![
            AnimSpec::new(
                "a",
                vec![
                    BoneSpec::new("x", 4, -1, vec![p4(q, 5, [1, 2, 3]), p4(q, 4, [1, 2, 3])]),
                    BoneSpec::new("y", 3, -1, vec![p3(q, 0)]),
                ],
            )
            .flags(0)
            .frame_data_size(0),
            AnimSpec::new(
                "b",
                vec![BoneSpec::new("z", 3, 8, vec![p3(q, 9), p3(q, 8)])],
            ),
        ],
    )
    .size(1)
    .trailing(&[0, 0, 0, 0, 0x55, 0, 0xAA, 0, 0, 0])
}

/// Inputs that must fail, with the bytes built in code.
pub fn error_fixtures() -> Vec<(&'static str, Vec<u8>)> {
    let mut bad_magic = anp3_packed().build();
    bad_magic[..4].copy_from_slice(b"ANP\x04");
    let unknown = |t: u32| {
        FileSpec::anp3(
            "u",
            vec![
                AnimSpec::new(
                    "ok",
                    vec![BoneSpec::new("a", 3, 0, vec![p3([0, 0, 0, ONE], 0)])],
                ),
                AnimSpec::new(
                    "bad",
                    vec![
                        BoneSpec::new("b", 1, 0, vec![f1([0.0; 4], 0.0)]),
                        BoneSpec::new("c", t, 0, vec![]).count(1),
                    ],
                ),
            ],
        )
        .build()
    };
    let mut too_many_frames = anp3_packed();
    too_many_frames.animations[0].bones[1].frame_count = Some(u32::MAX);
    vec![
        ("bad_magic", bad_magic),
        ("unknown_type_0", unknown(0)),
        ("unknown_type_5", unknown(5)),
        ("unknown_type_max", unknown(u32::MAX)),
        ("too_many_animations", anp3_packed().count(u32::MAX).build()),
        (
            "too_many_bones",
            FileSpec::anp3(
                "b",
                vec![AnimSpec::new("x", vec![BoneSpec::new("a", 3, 0, vec![])]).count(u32::MAX)],
            )
            .build(),
        ),
        ("too_many_frames", too_many_frames.build()),
        (
            "anp2_too_many_frames",
            FileSpec::anp2(
                "b",
                vec![AnimSpec::new(
                    "x",
                    vec![BoneSpec::new("a", 2, 0, vec![]).count(u32::MAX)],
                )],
            )
            .build(),
        ),
    ]
}

/// A small deterministic generator (xorshift64*), for sampling splits and mutations.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.max(1))
    }

    // Never ends, so not an `Iterator`.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform-ish in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

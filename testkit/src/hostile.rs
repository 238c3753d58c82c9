//! Support for the hostile-input tests (`tests/decode/hostile_*.rs`) and `tests/decode/bounded_work.rs`.
//!
//! - [`run`]: the kit's driver in chunks of one size, following seeks; its log printed one
//!   line per event (**one per keyframe**: batches depend on the cuts by design), and the work
//!   counted ([`Work`]).
//! - [`decode_all`] / [`expect_error`] / [`expect_ok`]: every way of cutting gives one outcome.
//! - Writers of fixtures in every format that also say, from docs/FORMATS.md alone, where each unit
//!   lies and in which order a decoder reads them ([`Fixture::units`]), so expected offsets
//!   never come from the decoder under test.

pub use crate::stories;

use gtastream::{Error, ErrorKind};

use crate::driver::{drive_cut, Cut};
use crate::ifp2;
use crate::log::{warnings, Ev, Policy};

// ------------------------------------------------------------------------------------------
// Runs: the kit's driver ([`crate::driver`]), its log printed one line per event

pub use crate::driver::Work;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub lines: Vec<String>,
    pub warnings: Vec<(&'static str, u64)>,
    pub error: Option<Error>,
}

impl Outcome {
    pub fn count(&self, prefix: &str) -> usize {
        self.lines.iter().filter(|l| l.starts_with(prefix)).count()
    }

    pub fn first(&self, prefix: &str) -> &str {
        self.lines
            .iter()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no {prefix} line in {:#?}", self.lines))
    }

    /// The lines before `end` and the final checks (what a truncated run can share).
    pub fn warnings_named(&self, name: &str) -> Vec<u64> {
        self.warnings
            .iter()
            .filter(|(n, _)| *n == name)
            .map(|&(_, at)| at)
            .collect()
    }
}

/// Decodes `data` in chunks of `chunk` bytes (following seeks) with the kit's driver, which
/// checks `position`, sticky errors, `Finished` and the documented re-read bound on every
/// seek; aborts at the `abort_at`-th event that is not a keyframe batch.
pub fn run_with(
    data: &[u8],
    chunk: usize,
    can_seek: bool,
    abort_at: Option<u64>,
) -> (Outcome, Work) {
    let policy = Policy::Mask {
        pause_mask: 0,
        abort_at,
    };
    let out = drive_cut(data, &Cut::Chunk(chunk), policy, can_seek);
    let outcome = Outcome {
        lines: out.log.iter().map(Ev::to_string).collect(),
        warnings: warnings(&out.log)
            .into_iter()
            .map(|(kind, at)| (kind.name(), at))
            .collect(),
        error: out.error,
    };
    (outcome, out.work)
}

pub fn run(data: &[u8], chunk: usize, can_seek: bool) -> (Outcome, Work) {
    run_with(data, chunk, can_seek, None)
}

/// Decodes `data` whole, a byte at a time (small inputs) and in several chunk sizes, seeking
/// where asked; all must agree. Returns the outcome.
pub fn decode_all(data: &[u8]) -> Outcome {
    let (whole, _) = run(data, usize::MAX, true);
    let mut sizes = vec![3, 7, 64, 4096];
    if data.len() <= 16 * 1024 {
        sizes.push(1);
    }
    for size in sizes {
        let (cut, _) = run(data, size, true);
        assert_eq!(
            cut, whole,
            "chunks of {size} bytes disagree with the whole input"
        );
    }
    whole
}

#[track_caller]
pub fn expect_error(data: &[u8], kind: ErrorKind, offset: u64) -> Outcome {
    let outcome = decode_all(data);
    assert_eq!(
        outcome.error,
        Some(Error { kind, offset }),
        "events: {:#?}",
        outcome.lines
    );
    outcome
}

#[track_caller]
pub fn expect_ok(data: &[u8]) -> Outcome {
    let outcome = decode_all(data);
    assert_eq!(outcome.error, None, "events: {:#?}", outcome.lines);
    outcome
}

/// Offset of the first non-zero byte at or after `from` (where `TrailingData` points).
pub fn first_nonzero(bytes: &[u8], from: u64) -> u64 {
    from + bytes[from as usize..]
        .iter()
        .position(|&b| b != 0)
        .expect("a non-zero byte") as u64
}

// ------------------------------------------------------------------------------------------
// Byte helpers

pub fn put_u32(bytes: &mut [u8], at: u64, value: u32) {
    let at = at as usize;
    bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

pub fn put_u16(bytes: &mut [u8], at: u64, value: u16) {
    let at = at as usize;
    bytes[at..at + 2].copy_from_slice(&value.to_le_bytes());
}

pub fn get_u32(bytes: &[u8], at: u64) -> u32 {
    let at = at as usize;
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

/// The kit's byte writer.
pub use crate::bytes::Writer as W;

// ------------------------------------------------------------------------------------------
// Fixtures and where their units lie

/// A fixture: the bytes, the units a decoder reads in the order it reads them (start, length),
/// and named offsets.
#[derive(Clone, Debug, Default)]
pub struct Fixture {
    pub bytes: Vec<u8>,
    pub units: Vec<(u64, u64)>,
    /// Where the content ends (bytes after it are trailing).
    pub content_end: u64,
    pub at: std::collections::BTreeMap<String, u64>,
}

impl Fixture {
    pub fn at(&self, name: &str) -> u64 {
        *self
            .at
            .get(name)
            .unwrap_or_else(|| panic!("no offset named {name}"))
    }

    fn mark(&mut self, name: impl Into<String>, at: u64) {
        self.at.insert(name.into(), at);
    }

    fn unit(&mut self, start: u64, len: u64) {
        self.units.push((start, len));
    }

    /// Where decoding the first `cut` bytes must fail: the start of the first unit, in
    /// reading order, that is not whole in them; `None` if the content is whole.
    pub fn truncated_at(&self, cut: u64) -> Option<u64> {
        self.units
            .iter()
            .find(|&&(start, len)| start + len > cut)
            .map(|&(start, _)| start)
    }
}

/// IFP2 frame sizes by type (docs/FORMATS.md §2).
pub fn ifp2_frame_size(frame_type: u32) -> u64 {
    ifp2::frame_size(frame_type).unwrap_or_else(|| panic!("type {frame_type}")) as u64
}

/// Keyframe `i` of IFP2 type `frame_type`.
fn ifp2_frame(frame_type: u32, i: usize) -> ifp2::Frame {
    let n = i as i16;
    let t = i as f32 / 30.0;
    match frame_type {
        1 => ifp2::f1([0.5, 0.0, 0.25, 0.75], t),
        2 => ifp2::f2([0.5, 0.0, 0.25, 0.75], t, [1.0, 2.0, 3.0]),
        3 => ifp2::p3([1000 + n, -200, 300, 4000], 2 * n),
        4 => ifp2::p4([1000 + n, -200, 300, 4000], 2 * n, [1024, -512, n]),
        _ => panic!("type {frame_type}"),
    }
}

/// An ANP3 (or ANP2) package "pkg" with one animation per entry of `animations`, each a list
/// of bones `(frame type, keyframes)`. Offsets: `anim{a}`, `bone{a}.{b}`, `frames{a}.{b}`.
pub fn ifp2(anp3: bool, animations: &[&[(u32, usize)]]) -> Fixture {
    let specs = animations
        .iter()
        .enumerate()
        .map(|(a, bones)| {
            let bones = bones
                .iter()
                .enumerate()
                .map(|(b, &(frame_type, frames))| {
                    let id = if b == 1 { -1 } else { b as i32 };
                    let frames = (0..frames).map(|i| ifp2_frame(frame_type, i)).collect();
                    ifp2::BoneSpec::new(&format!("bone{b}"), frame_type, id, frames)
                })
                .collect();
            ifp2::AnimSpec::new(&format!("anim{a}"), bones)
        })
        .collect();
    let spec = if anp3 {
        ifp2::FileSpec::anp3("pkg", specs)
    } else {
        ifp2::FileSpec::anp2("pkg", specs)
    };
    // Where the writer put each unit (docs/FORMATS.md §2).
    let mut f = Fixture {
        bytes: spec.build(),
        ..Fixture::default()
    };
    f.unit(0, 36);
    let header = if anp3 { 36 } else { 28 };
    let mut at = 36;
    for (a, bones) in animations.iter().enumerate() {
        f.mark(format!("anim{a}"), at);
        f.unit(at, header);
        at += header;
        for (b, &(frame_type, frames)) in bones.iter().enumerate() {
            f.mark(format!("bone{a}.{b}"), at);
            f.unit(at, 36);
            at += 36;
            f.mark(format!("frames{a}.{b}"), at);
            for _ in 0..frames {
                f.unit(at, ifp2_frame_size(frame_type));
                at += ifp2_frame_size(frame_type);
            }
        }
    }
    assert_eq!(at, f.bytes.len() as u64);
    f.content_end = at;
    f
}

/// ANPK keyframe sizes by tag (docs/FORMATS.md §1).
pub fn anpk_frame_size(tag: &[u8; 4]) -> u64 {
    match tag {
        b"KR00" => 20,
        b"KRT0" => 32,
        b"KRTS" => 44,
        _ => panic!("tag {tag:?}"),
    }
}

/// An ANPK object: keyframe tag, keyframes, and whether it has a bone id (44-byte ANIM).
pub type Object = (&'static [u8; 4], usize, bool);

/// An ANPK block "pkg" with one animation per entry, each a list of objects. Offsets:
/// `info`, `count`, `name{a}` (the NAME chunk), `dgan{a}`, `info{a}`, `cpan{a}.{o}`,
/// `anim{a}.{o}` (the ANIM chunk), `body{a}.{o}`, `kf{a}.{o}` (the keyframe chunk).
pub fn anpk(animations: &[&[Object]]) -> Fixture {
    let mut f = Fixture::default();
    let mut w = W::default();
    w.bytes(b"ANPK").u32(0);
    f.mark("info", w.at());
    w.bytes(b"INFO").u32(4 + 4);
    f.mark("count", w.at());
    w.u32(animations.len() as u32);
    // One unit per event, from the end of the last (docs/FORMATS.md §1.5): the header and
    // the package name; an animation's NAME chunk to its INFO fields; an object's CPAN chunk
    // to its keyframe chunk's header.
    f.unit(0, 20 + 4);
    w.bytes(b"pkg\0");
    for (a, objects) in animations.iter().enumerate() {
        let name = format!("anim{a}");
        f.mark(format!("name{a}"), w.at());
        let name_field = (name.len() as u64 + 1).next_multiple_of(4);
        f.unit(w.at(), 8 + name_field + 20 + 4);
        w.bytes(b"NAME").u32(name.len() as u32 + 1);
        w.bytes(name.as_bytes()).bytes(&[0]).pad4();
        f.mark(format!("dgan{a}"), w.at());
        w.bytes(b"DGAN");
        let dgan_size_at = w.at();
        w.u32(0);
        f.mark(format!("info{a}"), w.at());
        w.bytes(b"INFO").u32(8).u32(objects.len() as u32);
        // The INFO payload after the count: not interpreted, one field.
        w.u32(0);
        for (o, &(tag, frames, with_id)) in objects.iter().enumerate() {
            f.mark(format!("cpan{a}.{o}"), w.at());
            let anim_size = if with_id { 44 } else { 48 };
            let header = if frames > 0 { 8 } else { 0 };
            f.unit(w.at(), 16 + anim_size as u64 + header);
            w.bytes(b"CPAN");
            let cpan_size_at = w.at();
            w.u32(0);
            f.mark(format!("anim{a}.{o}"), w.at());
            w.bytes(b"ANIM").u32(anim_size);
            f.mark(format!("body{a}.{o}"), w.at());
            w.fixed(format!("obj{o}").as_bytes(), 28);
            w.i32(frames as i32).i32(0).i32(frames as i32 - 1);
            if with_id {
                w.i32(o as i32 + 1);
            } else {
                w.i32(0).i32(0);
            }
            if frames > 0 {
                f.mark(format!("kf{a}.{o}"), w.at());
                let size = anpk_frame_size(tag);
                w.bytes(tag).u32((size * frames as u64) as u32);
                for i in 0..frames {
                    f.unit(w.at(), size);
                    for v in 0..size / 4 - 1 {
                        w.f32(0.125 * (v + 1) as f32);
                    }
                    w.f32(i as f32 / 30.0);
                }
            }
            let size = w.at() - cpan_size_at - 4;
            put_u32(&mut w.out, cpan_size_at, size as u32);
        }
        let size = w.at() - dgan_size_at - 4;
        put_u32(&mut w.out, dgan_size_at, size as u32);
    }
    let end = w.at();
    put_u32(&mut w.out, 4, (end - 8) as u32);
    f.content_end = end;
    f.bytes = w.out;
    f
}

/// A Stories file and its units in reading order (docs/FORMATS.md §3): the header, the offset
/// table's entries (and the entry that ends it, when one is read), one pass over the
/// relocation table (it lists every entry), then per animation its entry again, its record,
/// and per bone its row and keyframes. Every table entry must be valid and listed.
pub fn stories(clips: &[stories::Anim], layout: stories::Layout, vcs: bool, pad: u32) -> Fixture {
    let w = stories::write_placed(clips, layout, vcs, pad);
    let mut f = Fixture::default();
    f.unit(0, 0x20);
    let lowest = w.records.iter().copied().min().unwrap_or(u32::MAX) as u64;
    let file_end = w.bytes.len() as u64;
    let mut entry = 0x20u64;
    for _ in clips {
        f.unit(entry, 4);
        entry += 4;
    }
    // The table goes on while a whole entry lies before the first record and the file end.
    if !clips.is_empty() && entry + 4 <= lowest.min(file_end) {
        f.unit(entry, 4);
    }
    if !clips.is_empty() {
        for r in 0..w.reloc_count as u64 {
            f.unit(w.reloc_at as u64 + 4 * r, 4);
        }
    }
    for (a, clip) in clips.iter().enumerate() {
        f.mark(format!("record{a}"), w.records[a] as u64);
        f.mark(format!("table{a}"), w.tables[a] as u64);
        f.unit(0x20 + 4 * a as u64, 4);
        f.unit(w.records[a] as u64, 0x24);
        for (b, row) in clip.bones.iter().enumerate() {
            let row_at = w.tables[a] as u64 + 12 * b as u64;
            f.mark(format!("row{a}.{b}"), row_at);
            f.mark(format!("frames{a}.{b}"), w.frames[a][b] as u64);
            f.unit(row_at, 12);
            let size = stories::key_size(row) as u64;
            for k in 0..row.frames.len() as u64 {
                f.unit(w.frames[a][b] as u64 + k * size, size);
            }
        }
    }
    f.mark("reloc", w.reloc_at as u64);
    f.content_end = file_end;
    f.bytes = w.bytes;
    f
}

/// A small Stories file: two animations, a translated bone, a bone without keys (garbage
/// offset), and an animation without bones.
pub fn stories_clips() -> Vec<stories::Anim> {
    use stories::{frame, Anim, BoneRow};
    vec![
        Anim {
            name: "walk",
            duration: 1.0,
            bones: vec![
                BoneRow {
                    flags: 0x13,
                    key: 0x1234_0001,
                    frames: vec![
                        frame([0.5, 0.0, 0.0, 0.75], 0.0, Some([1.0, 2.0, 3.0])),
                        frame([0.25, 0.0, 0.0, 1.0], 0.5, Some([1.5, 2.0, 3.0])),
                    ],
                    garbage_offset: 0,
                },
                BoneRow {
                    flags: 0x01,
                    key: 0xDEAD_BEEF,
                    frames: vec![
                        frame([0.0, 0.5, 0.0, 0.75], 0.0, None),
                        frame([0.0, 0.25, 0.0, 1.0], 0.25, None),
                        frame([0.0, 0.125, 0.0, 1.0], 0.25, None),
                    ],
                    garbage_offset: 0,
                },
                BoneRow {
                    flags: 0x01,
                    key: 7,
                    frames: vec![],
                    garbage_offset: 0xFFFF_FFF0,
                },
            ],
        },
        Anim {
            name: "idle",
            duration: 0.5,
            bones: vec![BoneRow {
                flags: 0x11,
                key: 3,
                frames: vec![frame([0.0, 0.0, 0.0, 1.0], 0.0, None)],
                garbage_offset: 0,
            }],
        },
        Anim {
            name: "none",
            duration: 0.0,
            bones: vec![],
        },
    ]
}

/// Sizes of the binary IPL records (docs/FORMATS.md §4).
pub const BNRY_HEADER: u64 = 76;
pub const INSTANCE: u64 = 40;
pub const CAR: u64 = 48;

/// A binary IPL: `instances` instances at 76, then `cars` cars; the header's sizes correct.
/// Offsets: `inst`, `cars`.
pub fn bnry(instances: u32, cars: u32) -> Fixture {
    use crate::ipl::{Car, Inst};
    let half = std::f32::consts::FRAC_1_SQRT_2;
    let inst: Vec<Inst> = (0..instances as i32)
        .map(|i| {
            let position = [100.0 + i as f32, -50.0, 10.5];
            Inst::binary(position, [0.0, 0.0, half, half], 1000 + i, 13 | 0x100, -1)
        })
        .collect();
    let car: Vec<Car> = (0..cars as i32)
        .map(|c| {
            Car::new(
                [5.0 + c as f32, 6.0, 7.0],
                1.5,
                [400 + c, -1, 3, 1, 50, 10, 0, 10000],
            )
        })
        .collect();
    let inst_at = BNRY_HEADER;
    let cars_at = inst_at + INSTANCE * instances as u64;
    let mut f = Fixture {
        bytes: crate::ipl::bnry(&inst, inst_at as u32, &car, cars_at as u32),
        ..Fixture::default()
    };
    f.unit(0, BNRY_HEADER);
    f.mark("inst", inst_at);
    f.mark("cars", cars_at);
    for i in 0..instances as u64 {
        f.unit(inst_at + INSTANCE * i, INSTANCE);
    }
    for c in 0..cars as u64 {
        f.unit(cars_at + CAR * c, CAR);
    }
    f.content_end = f.bytes.len() as u64;
    f
}

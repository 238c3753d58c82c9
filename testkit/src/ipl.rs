//! Placement files (binary `bnry` and text IPL): fixture writers, reference decoder, and the
//! placement tests' way of running the kit's driver (`tests/decode/ipl_*.rs`).
//!
//! - [`hex`]: hand-written bytes, `// comments` allowed.
//! - [`Inst`] / [`Car`] and [`instance_bytes`] / [`car_bytes`] / [`bnry`]: binary fixtures
//!   written field by field from FORMATS.md §4 (little-endian), never by the crate.
//! - [`drive`]: the kit's driver ([`crate::driver`]) with a file cut at chosen offsets; it
//!   re-feeds after pauses, follows seeks, keeps feeding after `Done` (trailing bytes),
//!   finishes, and checks the driver-level contract; events in the kit's log ([`crate::log`]).
//! - [`reference`]: a small whole-buffer decoder of both placement formats written from the
//!   spec alone (FORMATS.md §4 and the issue), independent of the crate: which events, at which
//!   offsets, a correct decoder reports for any bytes, and where each record or line ends.
//! - [`binary_fixtures`] / [`text_fixtures`]: every file the chunking, truncation, pause,
//!   allocation and `Placement` tests run over.

use gtastream::{Decoder, ErrorKind, Format, Options, WarningKind};

use crate::driver::drive_with;
use crate::log::Policy;

/// Unit sizes of the binary format (FORMATS.md §4).
pub const HEADER: usize = 76;
pub const INSTANCE: usize = 40;
pub const CAR: usize = 48;
/// Longest text line, line break included (the issue).
pub const LINE_MAX: usize = 256;

/// The text IPL section names (FORMATS.md §4).
pub const SECTION_NAMES: [&str; 13] = [
    "inst", "cull", "path", "grge", "enex", "pick", "cars", "jump", "tcyc", "auzo", "mult", "occl",
    "zone",
];

// ------------------------------------------------------------------------------------------
// Bytes

/// Bytes written as hex pairs separated by blanks; `//` starts a comment up to the line end.
pub fn hex(text: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or_default();
        for pair in code.split_whitespace() {
            assert_eq!(pair.len(), 2, "hex bytes come in pairs: {pair:?}");
            out.push(u8::from_str_radix(pair, 16).expect("a hex byte"));
        }
    }
    out
}

/// Writes `bytes` at `at`, growing `buf` with zeros as needed.
pub fn put(buf: &mut Vec<u8>, at: usize, bytes: &[u8]) {
    if buf.len() < at + bytes.len() {
        buf.resize(at + bytes.len(), 0);
    }
    buf[at..at + bytes.len()].copy_from_slice(bytes);
}

pub fn put_u32(buf: &mut Vec<u8>, at: usize, value: u32) {
    put(buf, at, &value.to_le_bytes());
}

pub fn get_u32(buf: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(buf[at..at + 4].try_into().unwrap())
}

fn get_i32(buf: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(buf[at..at + 4].try_into().unwrap())
}

fn get_f32(buf: &[u8], at: usize) -> f32 {
    f32::from_bits(get_u32(buf, at))
}

/// `bytes` with `fill` written over `range`.
pub fn filled(mut bytes: Vec<u8>, range: core::ops::Range<usize>, fill: u8) -> Vec<u8> {
    for b in &mut bytes[range] {
        *b = fill;
    }
    bytes
}

/// `bytes` padded with zeros to `len`.
pub fn padded(mut bytes: Vec<u8>, len: usize) -> Vec<u8> {
    assert!(len >= bytes.len());
    bytes.resize(len, 0);
    bytes
}

/// The concatenation of the pieces.
pub fn cat(pieces: &[&[u8]]) -> Vec<u8> {
    pieces.concat()
}

// ------------------------------------------------------------------------------------------
// Records, compared by the bits of their floats

/// A placed object as the decoder should report it.
#[derive(Clone, Debug)]
pub struct Inst {
    pub position: [f32; 3],
    pub rotation: [f32; 4],
    pub model_id: i32,
    pub interior: u32,
    pub lod: i32,
    pub model_name: Option<Vec<u8>>,
    pub scale: Option<[f32; 3]>,
}

/// A car generator as the decoder should report it.
#[derive(Clone, Debug)]
pub struct Car {
    pub position: [f32; 3],
    pub angle: f32,
    pub model_id: i32,
    pub primary_color: i32,
    pub secondary_color: i32,
    pub flags: i32,
    pub alarm_chance: i32,
    pub door_lock_chance: i32,
    pub min_delay: i32,
    pub max_delay: i32,
}

fn bits<const N: usize>(v: &[f32; N]) -> [u32; N] {
    v.map(f32::to_bits)
}

impl PartialEq for Inst {
    fn eq(&self, o: &Self) -> bool {
        bits(&self.position) == bits(&o.position)
            && bits(&self.rotation) == bits(&o.rotation)
            && self.model_id == o.model_id
            && self.interior == o.interior
            && self.lod == o.lod
            && self.model_name == o.model_name
            && self.scale.as_ref().map(bits) == o.scale.as_ref().map(bits)
    }
}

impl PartialEq for Car {
    fn eq(&self, o: &Self) -> bool {
        bits(&self.position) == bits(&o.position)
            && self.angle.to_bits() == o.angle.to_bits()
            && [
                self.model_id,
                self.primary_color,
                self.secondary_color,
                self.flags,
                self.alarm_chance,
                self.door_lock_chance,
                self.min_delay,
                self.max_delay,
            ] == [
                o.model_id,
                o.primary_color,
                o.secondary_color,
                o.flags,
                o.alarm_chance,
                o.door_lock_chance,
                o.min_delay,
                o.max_delay,
            ]
    }
}

impl Inst {
    /// A binary instance (no name, no scale).
    pub fn binary(
        position: [f32; 3],
        rotation: [f32; 4],
        model_id: i32,
        interior: u32,
        lod: i32,
    ) -> Inst {
        Inst {
            position,
            rotation,
            model_id,
            interior,
            lod,
            model_name: None,
            scale: None,
        }
    }

    /// A binary instance with every field zero.
    pub fn zero() -> Inst {
        Inst::binary([0.0; 3], [0.0; 4], 0, 0, 0)
    }

    /// A San Andreas text `inst` line: `id, name, interior, pos×3, rot×4, lod`.
    pub fn sa(
        id: i32,
        name: &[u8],
        interior: u32,
        position: [f32; 3],
        rotation: [f32; 4],
        lod: i32,
    ) -> Inst {
        Inst {
            position,
            rotation,
            model_id: id,
            interior,
            lod,
            model_name: Some(name.to_vec()),
            scale: None,
        }
    }

    /// A Vice City text `inst` line: `id, name, interior, pos×3, scale×3, rot×4` (no LOD).
    pub fn vc(
        id: i32,
        name: &[u8],
        interior: u32,
        position: [f32; 3],
        scale: [f32; 3],
        rotation: [f32; 4],
    ) -> Inst {
        Inst {
            position,
            rotation,
            model_id: id,
            interior,
            lod: -1,
            model_name: Some(name.to_vec()),
            scale: Some(scale),
        }
    }

    /// A GTA III text `inst` line: `id, name, pos×3, scale×3, rot×4` (no interior, no LOD).
    pub fn iii(
        id: i32,
        name: &[u8],
        position: [f32; 3],
        scale: [f32; 3],
        rotation: [f32; 4],
    ) -> Inst {
        Inst {
            position,
            rotation,
            model_id: id,
            interior: 0,
            lod: -1,
            model_name: Some(name.to_vec()),
            scale: Some(scale),
        }
    }

    /// A distinct binary instance for fixture number `k`.
    pub fn sample(k: i32) -> Inst {
        let f = k as f32;
        Inst::binary(
            [f + 0.5, -2.0 * f, 1000.25 + f],
            [0.0, 0.25 * f, -0.5, 0.75],
            1000 + k,
            (k as u32 % 3) * 256 + 13,
            k - 1,
        )
    }
}

impl Car {
    /// A car generator from its twelve values in file order.
    pub fn new(position: [f32; 3], angle: f32, ints: [i32; 8]) -> Car {
        let [model_id, primary_color, secondary_color, flags, alarm_chance, door_lock_chance, min_delay, max_delay] =
            ints;
        Car {
            position,
            angle,
            model_id,
            primary_color,
            secondary_color,
            flags,
            alarm_chance,
            door_lock_chance,
            min_delay,
            max_delay,
        }
    }

    pub fn zero() -> Car {
        Car::new([0.0; 3], 0.0, [0; 8])
    }

    /// A distinct car generator for fixture number `k`.
    pub fn sample(k: i32) -> Car {
        let f = k as f32;
        Car::new(
            [-f - 0.125, 3.0 * f, 7.5],
            0.1 * f,
            [
                400 + k,
                k - 1,
                126 - k,
                k % 4,
                10 * k,
                100 - k,
                1000 * k,
                60_000 + k,
            ],
        )
    }
}

/// The 40 bytes of a binary instance (FORMATS.md §4).
pub fn instance_bytes(i: &Inst) -> [u8; INSTANCE] {
    let mut out = Vec::with_capacity(INSTANCE);
    for v in i.position.iter().chain(&i.rotation) {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&i.model_id.to_le_bytes());
    out.extend_from_slice(&i.interior.to_le_bytes());
    out.extend_from_slice(&i.lod.to_le_bytes());
    out.try_into().unwrap()
}

/// The 48 bytes of a binary car generator (FORMATS.md §4).
pub fn car_bytes(c: &Car) -> [u8; CAR] {
    let mut out = Vec::with_capacity(CAR);
    for v in c.position.iter().chain([&c.angle]) {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for v in [
        c.model_id,
        c.primary_color,
        c.secondary_color,
        c.flags,
        c.alarm_chance,
        c.door_lock_chance,
        c.min_delay,
        c.max_delay,
    ] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.try_into().unwrap()
}

/// A binary IPL as a well-behaved writer makes it: the counts, both offsets, sizes equal to
/// count × record size, unknown sections empty; the records at their offsets; zeros between;
/// as long as the header or the section that ends last.
pub fn bnry(instances: &[Inst], inst_at: u32, cars: &[Car], car_at: u32) -> Vec<u8> {
    let mut b = Vec::new();
    put(&mut b, 0, b"bnry");
    put_u32(&mut b, 0x04, instances.len() as u32);
    put_u32(&mut b, 0x14, cars.len() as u32);
    put_u32(&mut b, 0x1C, inst_at);
    put_u32(&mut b, 0x20, (instances.len() * INSTANCE) as u32);
    put_u32(&mut b, 0x3C, car_at);
    put_u32(&mut b, 0x40, (cars.len() * CAR) as u32);
    put(&mut b, 0x48, &[0; 4]);
    for (k, i) in instances.iter().enumerate() {
        put(&mut b, inst_at as usize + k * INSTANCE, &instance_bytes(i));
    }
    for (k, c) in cars.iter().enumerate() {
        put(&mut b, car_at as usize + k * CAR, &car_bytes(c));
    }
    assert!(b.len() >= HEADER);
    b
}

pub fn samples_inst(n: i32) -> Vec<Inst> {
    (0..n).map(Inst::sample).collect()
}

pub fn samples_car(n: i32) -> Vec<Car> {
    (0..n).map(Car::sample).collect()
}

// ------------------------------------------------------------------------------------------
// Events

pub use crate::log::{warnings, Ev, Recorder};

impl Ev {
    pub fn bnry_file(instances: u32, cars: u32) -> Ev {
        Ev::File {
            format: Format::IplBinary,
            name: None,
            animation_count: 0,
            instance_count: Some(instances),
            car_count: Some(cars),
        }
    }

    pub fn text_file() -> Ev {
        Ev::File {
            format: Format::IplText,
            name: None,
            animation_count: 0,
            instance_count: None,
            car_count: None,
        }
    }

    /// A section line with the fields written out by hand.
    pub fn line(section: &'static str, text: &[u8], fields: &[&[u8]]) -> Ev {
        Ev::Line {
            section,
            text: text.to_vec(),
            fields: fields.iter().map(|f| f.to_vec()).collect(),
        }
    }
}

// ------------------------------------------------------------------------------------------
// Driver

/// What a run of the decoder reported.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub events: Vec<Ev>,
    /// `Decoder::line()` after the run.
    pub line: Option<u32>,
    /// For every pause: events reported so far, and `Decoder::position()` then.
    pub pauses: Vec<(usize, u64)>,
    /// Every `Status::Seek` offset, in order.
    pub seeks: Vec<u64>,
}

/// Feeds `data` in chunks (`next_cut(p)` is the end of the chunk that starts at `p`), pausing
/// after every event if `pause`, with the kit's driver ([`crate::driver::drive_with`]): it
/// re-feeds the rest after a pause, restarts at the offset of a seek, goes on feeding after
/// `Done`, finishes, and checks consumed counts, the position, sticky errors and `Finished`.
pub fn drive(
    data: &[u8],
    next_cut: &dyn Fn(usize) -> usize,
    options: Options,
    pause: bool,
) -> Outcome {
    let policy = if pause {
        Policy::PauseEvery
    } else {
        Policy::Continue
    };
    let out = drive_with(data, &mut |p| next_cut(p), policy, options);
    Outcome {
        events: out.logged(),
        line: out.line,
        pauses: out.pauses,
        seeks: out.seeks,
    }
}

/// Cut strategies for [`drive`].
pub fn whole(_: usize) -> usize {
    usize::MAX
}

pub fn bytewise(p: usize) -> usize {
    p + 1
}

/// The whole file in one call, for a caller that can seek.
pub fn log(data: &[u8]) -> Vec<Ev> {
    drive(data, &whole, Options::default(), false).events
}

/// One byte per call.
pub fn log_bytewise(data: &[u8]) -> Vec<Ev> {
    drive(data, &bytewise, Options::default(), false).events
}

/// The whole file through `Decoder::decode_slice`.
pub fn log_slice(data: &[u8]) -> Vec<Ev> {
    let mut rec = Recorder::default();
    if let Err(e) = Decoder::new().decode_slice(data, &mut rec) {
        rec.events.push(Ev::Error(e.kind, e.offset));
    }
    rec.events
}

// ------------------------------------------------------------------------------------------
// Reference decoder, from the spec alone

/// What the reference decoder says about a file.
#[derive(Clone, Debug)]
pub struct Reference {
    /// Each event, with the offset just past the record or line it came from (text files:
    /// 0 for the file event, the line's end for a line-outside-section warning).
    pub events: Vec<(Ev, Option<u64>)>,
    /// Text files: the number of the last line looked at (the one that failed, on an error).
    pub line: Option<u32>,
    /// Binary files: whether a section lies behind the one read before it.
    pub seeks: bool,
}

impl Reference {
    pub fn log(&self) -> Vec<Ev> {
        self.events.iter().map(|(e, _)| e.clone()).collect()
    }
}

/// The reference decoding of `data` for a caller that can seek.
pub fn reference(data: &[u8]) -> Reference {
    reference_with(data, true)
}

/// The reference decoding of `data`; `can_seek` as in `Options`.
pub fn reference_with(data: &[u8], can_seek: bool) -> Reference {
    if data.is_empty() {
        return Reference {
            events: vec![(Ev::Error(ErrorKind::Truncated, 0), None)],
            line: None,
            seeks: false,
        };
    }
    let head = &data[..data.len().min(4)];
    assert!(
        !BINARY_MAGICS[..5].contains(&head),
        "the reference knows placement files only"
    );
    // A cut inside a binary magic is a binary file cut short.
    if head.len() < 4 && BINARY_MAGICS.iter().any(|m| m.starts_with(head)) {
        return Reference {
            events: vec![(Ev::Error(ErrorKind::Truncated, 0), None)],
            line: None,
            seeks: false,
        };
    }
    if head == b"bnry" {
        reference_bnry(data, can_seek)
    } else if head.iter().all(|&b| is_text_byte(b)) {
        reference_text(data)
    } else {
        Reference {
            events: vec![(Ev::Error(ErrorKind::BadMagic, 0), None)],
            line: None,
            seeks: false,
        }
    }
}

/// The magics of the binary formats (FORMATS.md §1–4), placements last.
pub const BINARY_MAGICS: [&[u8]; 6] = [b"ANP3", b"ANP2", b"ANPK", b"ANLF", b"mina", b"bnry"];

/// Printable ASCII, tab, CR and LF.
pub fn is_text_byte(b: u8) -> bool {
    b == b'\t' || b == b'\r' || b == b'\n' || (0x20..0x7f).contains(&b)
}

fn emit(out: &mut Reference, ev: Ev, end: Option<u64>) {
    out.events.push((ev, end));
}

fn reference_bnry(data: &[u8], can_seek: bool) -> Reference {
    let mut out = Reference {
        events: Vec::new(),
        line: None,
        seeks: false,
    };
    if data.len() < HEADER {
        emit(&mut out, Ev::Error(ErrorKind::Truncated, 0), None);
        return out;
    }
    let n_inst = get_u32(data, 0x04);
    let n_car = get_u32(data, 0x14);
    let inst_at = get_u32(data, 0x1C);
    let car_at = get_u32(data, 0x3C);
    // Each section must fit in a 4 GiB file.
    if u64::from(inst_at) + u64::from(n_inst) * INSTANCE as u64 > 1 << 32 {
        emit(&mut out, Ev::Error(ErrorKind::CountTooLarge, 0x04), None);
        return out;
    }
    if u64::from(car_at) + u64::from(n_car) * CAR as u64 > 1 << 32 {
        emit(&mut out, Ev::Error(ErrorKind::CountTooLarge, 0x14), None);
        return out;
    }
    for at in [0x08, 0x0C, 0x10, 0x18] {
        if get_u32(data, at) != 0 {
            emit(
                &mut out,
                Ev::Warning(WarningKind::UnknownSection, at as u64),
                None,
            );
        }
    }
    for (at, count, record) in [(0x20, n_inst, INSTANCE), (0x40, n_car, CAR)] {
        let size = u64::from(get_u32(data, at));
        if size != 0 && size != u64::from(count) * record as u64 {
            emit(
                &mut out,
                Ev::Warning(WarningKind::SizeMismatch, at as u64),
                None,
            );
        }
    }
    emit(&mut out, Ev::bnry_file(n_inst, n_car), None);

    // Sections with records, in file order (instances first where both start at one offset).
    let mut sections: Vec<(u64, u32, bool)> = Vec::new();
    if n_inst > 0 {
        sections.push((u64::from(inst_at), n_inst, true));
    }
    if n_car > 0 {
        sections.push((u64::from(car_at), n_car, false));
    }
    sections.sort_by_key(|s| s.0);
    let mut pos = HEADER as u64;
    let mut end = 0;
    for &(at, count, is_inst) in &sections {
        if at < pos {
            if !can_seek {
                emit(&mut out, Ev::Error(ErrorKind::SeekRequired, at), None);
                return out;
            }
            out.seeks = true;
        }
        let size = if is_inst { INSTANCE } else { CAR } as u64;
        for k in 0..u64::from(count) {
            let off = at + k * size;
            if off + size > data.len() as u64 {
                emit(&mut out, Ev::Error(ErrorKind::Truncated, off), None);
                return out;
            }
            let o = off as usize;
            let ev = if is_inst {
                Ev::Instance(Inst::binary(
                    [get_f32(data, o), get_f32(data, o + 4), get_f32(data, o + 8)],
                    [
                        get_f32(data, o + 12),
                        get_f32(data, o + 16),
                        get_f32(data, o + 20),
                        get_f32(data, o + 24),
                    ],
                    get_i32(data, o + 28),
                    get_u32(data, o + 32),
                    get_i32(data, o + 36),
                ))
            } else {
                let mut ints = [0; 8];
                for (j, v) in ints.iter_mut().enumerate() {
                    *v = get_i32(data, o + 16 + 4 * j);
                }
                Ev::Car(Car::new(
                    [get_f32(data, o), get_f32(data, o + 4), get_f32(data, o + 8)],
                    get_f32(data, o + 12),
                    ints,
                ))
            };
            emit(&mut out, ev, Some(off + size));
        }
        pos = at + u64::from(count) * size;
        end = end.max(pos);
    }
    // Reading ends where the section that ends last ends; then zeros are padding.
    if end > pos {
        if end > data.len() as u64 {
            emit(&mut out, Ev::Error(ErrorKind::Truncated, end), None);
            return out;
        }
        pos = end;
    }
    if let Some(i) = data[pos as usize..].iter().position(|&b| b != 0) {
        emit(
            &mut out,
            Ev::Warning(WarningKind::TrailingData, pos + i as u64),
            None,
        );
    }
    emit(&mut out, Ev::End, None);
    out
}

fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// A line without its line break and the blanks around it.
pub fn trim(mut s: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = s {
        if !is_blank(*first) {
            break;
        }
        s = rest;
    }
    while let [rest @ .., last] = s {
        if !is_blank(*last) {
            break;
        }
        s = rest;
    }
    s
}

/// The fields of a line: runs between commas, spaces and tabs.
pub fn split_fields(s: &[u8]) -> Vec<&[u8]> {
    s.split(|&b| b == b',' || b == b' ' || b == b'\t')
        .filter(|f| !f.is_empty())
        .collect()
}

fn number<T: core::str::FromStr>(field: &[u8]) -> Option<T> {
    std::str::from_utf8(field).ok()?.parse().ok()
}

fn numbers<const N: usize>(fields: &[&[u8]]) -> Option<[f32; N]> {
    let mut out = [0.0; N];
    for (o, f) in out.iter_mut().zip(fields) {
        *o = number(f)?;
    }
    Some(out)
}

fn text_inst(f: &[&[u8]]) -> Option<Inst> {
    if !matches!(f.len(), 11..=13) {
        return None;
    }
    let id = number(f[0])?;
    let name = f[1];
    Some(match f.len() {
        11 => Inst::sa(
            id,
            name,
            number::<i32>(f[2])? as u32,
            numbers(&f[3..6])?,
            numbers(&f[6..10])?,
            number(f[10])?,
        ),
        13 => Inst::vc(
            id,
            name,
            number::<i32>(f[2])? as u32,
            numbers(&f[3..6])?,
            numbers(&f[6..9])?,
            numbers(&f[9..13])?,
        ),
        12 => Inst::iii(
            id,
            name,
            numbers(&f[2..5])?,
            numbers(&f[5..8])?,
            numbers(&f[8..12])?,
        ),
        _ => return None,
    })
}

fn text_car(f: &[&[u8]]) -> Option<Car> {
    if f.len() != 12 {
        return None;
    }
    let [x, y, z, angle] = numbers(&f[..4])?;
    let mut ints = [0; 8];
    for (v, field) in ints.iter_mut().zip(&f[4..]) {
        *v = number(field)?;
    }
    Some(Car::new([x, y, z], angle, ints))
}

fn reference_text(data: &[u8]) -> Reference {
    let mut out = Reference {
        events: vec![(Ev::text_file(), Some(0))],
        line: Some(0),
        seeks: false,
    };
    let mut section: Option<&'static str> = None;
    let mut start = 0;
    let mut number = 0;
    while start < data.len() {
        let rest = &data[start..];
        let newline = rest.iter().position(|&b| b == b'\n');
        let len = newline.map_or(rest.len(), |i| i + 1);
        number += 1;
        out.line = Some(number);
        // A line may take MAX_LINE bytes with its break: without one, one byte fewer.
        let too_long = match newline {
            Some(_) => len > LINE_MAX,
            None => len >= LINE_MAX,
        };
        let at = start as u64;
        if too_long {
            out.events.push((Ev::Error(ErrorKind::Limit, at), None));
            return out;
        }
        let end = Some((start + len) as u64);
        start += len;
        let text = trim(&rest[..len]);
        if text.is_empty() || text[0] == b'#' {
            continue;
        }
        let Some(open) = section else {
            let first = split_fields(text)[0];
            section = SECTION_NAMES
                .iter()
                .copied()
                .find(|s| first.eq_ignore_ascii_case(s.as_bytes()));
            if section.is_none() {
                out.events
                    .push((Ev::Warning(WarningKind::LineOutsideSection, at), end));
            }
            continue;
        };
        if text.len() >= 3 && text[..3].eq_ignore_ascii_case(b"end") {
            section = None;
            continue;
        }
        let fields = split_fields(text);
        let ev = match open {
            "inst" => text_inst(&fields).map(Ev::Instance),
            "cars" => text_car(&fields).map(Ev::Car),
            _ => Some(Ev::Line {
                section: open,
                text: text.to_vec(),
                fields: fields.iter().map(|f| f.to_vec()).collect(),
            }),
        };
        match ev {
            Some(ev) => out.events.push((ev, end)),
            None => {
                out.events.push((Ev::Error(ErrorKind::Malformed, at), None));
                return out;
            }
        }
    }
    if section.is_some() {
        out.events.push((
            Ev::Warning(WarningKind::UnclosedSection, data.len() as u64),
            None,
        ));
    }
    out.events.push((Ev::End, None));
    out
}

// ------------------------------------------------------------------------------------------
// Fixtures

/// The hand-written binary file of `ipl_binary.rs`: one instance, one car, vanilla layout.
pub fn hand_bnry() -> Vec<u8> {
    hex("
        62 6e 72 79   // 0x00 magic bnry
        01 00 00 00   // 0x04 instances: 1
        00 00 00 00   // 0x08 unknown 1
        00 00 00 00   // 0x0C unknown 2
        00 00 00 00   // 0x10 unknown 3
        01 00 00 00   // 0x14 cars: 1
        00 00 00 00   // 0x18 unknown 4
        4c 00 00 00   // 0x1C instances at 76
        28 00 00 00   // 0x20 size 40
        00 00 00 00  00 00 00 00   // 0x24 unknown 1 offset, size
        00 00 00 00  00 00 00 00   // 0x2C unknown 2
        00 00 00 00  00 00 00 00   // 0x34 unknown 3
        74 00 00 00   // 0x3C cars at 116
        30 00 00 00   // 0x40 size 48
        00 00 00 00  00 00 00 00   // 0x44 unknown 4 offset, size
        // 0x4C instance
        00 00 80 3f  00 00 00 c0  00 00 40 40               // position 1, -2, 3
        00 00 00 3f  00 00 00 bf  00 00 80 3e  00 00 80 be  // rotation .5 -.5 .25 -.25
        39 30 00 00   // model id 12345
        0d 01 00 00   // interior 0x10D: area 13, flag bit 8
        ff ff ff ff   // lod -1
        // 0x74 car
        00 00 c8 42  00 00 48 c3  00 00 96 43   // position 100, -200, 300
        db 0f c9 3f   // angle pi/2
        90 01 00 00   // model 400
        ff ff ff ff   // primary colour -1
        7e 00 00 00   // secondary colour 126
        03 00 00 00   // flags 3
        32 00 00 00   // alarm 50
        64 00 00 00   // door lock 100
        e8 03 00 00   // min delay 1000
        10 27 00 00   // max delay 10000
    ")
}

/// Vanilla: three instances at 76, two cars right after.
pub fn vanilla() -> Vec<u8> {
    bnry(&samples_inst(3), 76, &samples_car(2), 76 + 120)
}

/// Binary files: every layout and header quirk, with a name each.
pub fn binary_fixtures() -> Vec<(String, Vec<u8>)> {
    let i3 = samples_inst(3);
    let c2 = samples_car(2);
    let out: Vec<(&str, Vec<u8>)> = vec![
        ("hand", hand_bnry()),
        ("vanilla", vanilla()),
        ("padded to 2048", padded(vanilla(), 2048)),
        ("gap between sections", {
            // Instances at 100 (garbage in 76..100), cars 12 bytes after them (garbage too).
            let b = bnry(&i3, 100, &c2, 100 + 120 + 12);
            let b = filled(b, 76..100, 0xEE);
            padded(filled(b, 220..232, 0x55), 512)
        }),
        ("cars first", {
            let b = bnry(&i3, 76 + 96 + 8, &c2, 76);
            filled(b, 172..180, 0x77)
        }),
        ("empty", {
            let mut b = bnry(&[], 0, &[], 0);
            put_u32(&mut b, 0x1C, 0xDEAD_BEEF);
            put_u32(&mut b, 0x3C, 0xFFFF_FFFF);
            b
        }),
        ("empty padded", {
            let mut b = bnry(&[], 0, &[], 0);
            put_u32(&mut b, 0x1C, 76);
            put_u32(&mut b, 0x3C, 12);
            padded(b, 2048)
        }),
        ("empty with trailing data", {
            let b = bnry(&[], 0x4000, &[], 0x12);
            cat(&[&b, &[0, 0, 0, 9, 0, 8, 7]])
        }),
        ("instances only, garbage car offset", {
            let mut b = bnry(&i3, 76, &[], 0);
            put_u32(&mut b, 0x3C, 0x10);
            b
        }),
        ("cars only, garbage instance offset", {
            let mut b = bnry(&[], 0, &c2, 76);
            put_u32(&mut b, 0x1C, 0x7FFF_FFFF);
            b
        }),
        ("overlapping: cars inside the instances", {
            bnry(&i3, 76, &samples_car(1), 100)
        }),
        ("overlapping, then zeros and trailing data", {
            let b = bnry(&i3, 76, &samples_car(2), 100);
            cat(&[&b, &[0; 9], b"junk", &[0; 3]])
        }),
        ("instances behind the header", {
            // One instance read from bytes 16..56 of the header, then a car at 76.
            bnry(&[], 0, &samples_car(1), 76)
                .into_iter()
                .enumerate()
                .map(|(k, b)| match k {
                    0x04 => 1,
                    0x1C => 16,
                    _ => b,
                })
                .collect()
        }),
        (
            "both at one offset",
            bnry(&[Inst::sample(7)], 76, &[Car::sample(3)], 76),
        ),
        ("header warnings", {
            let mut b = vanilla();
            put_u32(&mut b, 0x08, 1);
            put_u32(&mut b, 0x0C, 0xFFFF_FFFF);
            put_u32(&mut b, 0x10, 3);
            put_u32(&mut b, 0x18, 0x100);
            put_u32(&mut b, 0x20, 7);
            put_u32(&mut b, 0x40, 48 * 3);
            b
        }),
        ("trailing data after zeros", {
            let b = padded(vanilla(), 300);
            cat(&[&b, b"\x01stale", &[0; 40]])
        }),
        ("count too large", {
            let mut b = vanilla();
            put_u32(&mut b, 0x14, 0x0555_5555);
            b
        }),
        (
            "huge count that fits",
            bnry(&i3, 76, &[], 0)
                .into_iter()
                .enumerate()
                .map(|(k, b)| if k == 0x07 { 1 } else { b })
                .collect(),
        ),
    ];
    out.into_iter().map(|(n, b)| (n.to_string(), b)).collect()
}

/// The text file with every section, the three `inst` layouts and the quirks (LF endings).
pub fn text_all_sections() -> Vec<u8> {
    let lines: &[&[u8]] = &[
        b"# gtastream text IPL: every section, three inst layouts\n",
        b"inst\n",
        b"1, lod_a, 0, 1.0, 2.0, 3.0, 0, 0, 0, 1, -1\n",
        b"2 lod_b 13 -1.5e2 +3 .5 0 0 0.5 1 5\n",
        b"3\tmdl_tab\t256\t4.25\t-8\t16\t0\t0\t-0.5\t0.75\t0\n",
        b"4, vc_obj, 2, 10, 20, 30, 1, 1.5, 2, 0, 0, 0, 1\n",
        b"5, iii_obj, 100.5, -200.25, 7, 2, 2, 2, 0, 0, 1, 0\n",
        b"\n",
        b"  # indented comment\n",
        b"6,mdl_commas,1,1,2,3,0,0,0,1,2\n",
        b"  \t \n",
        b"7 , spaced , 0 , 1 , 1 , 1 , 0 , 0 , 0 , 1 , -1\n",
        b"9, caf\xe9, 0, 0, 0, 0, 0, 0, 0, 1, -1,\n",
        b"end\n",
        b"cull\n",
        b"  1.0, 2.0, 3.0,  4, 5  \n",
        b"end\n",
        b"path\n",
        b"ped\n",
        b"0, -1, 1, 2, 3\n",
        b"end\n",
        b"grge\n",
        b"1.0 2.0 3.0 1 0 4 5 6 7 0 0 bodyshp\n",
        b"end\n",
        b"enex\n",
        b"1,2,3,FDINT,0\n",
        b"end\n",
        b"pick\n",
        b"1, 2, 3, 346\n",
        b"end\n",
        b"cars\n",
        b"1.0, 2.0, 3.0, 1.5707964, 400, -1, -1, 3, 50, 100, 0, 10000\n",
        b"-5 6 -7 0 -1 1 2 0 0 0 1000 2000\n",
        b"end\n",
        b"jump\n",
        b"1 2 3 4 5 6\n",
        b"end\n",
        b"tcyc\n",
        b"a b,c\n",
        b"end\n",
        b"auzo\n",
        b"zone_a, 1, 2, 3\n",
        b"end\n",
        b"mult\n",
        b"x\n",
        b"end\n",
        b"occl\n",
        b"1, 2, 3, 4, 5, 6, 7\n",
        b"end\n",
        b"zone\n",
        b"ZONE1, 0, 1, 2\n",
        b"end\n",
        b"INST\n",
        b"8, UPPER, 0, 0, 0, 0, 0, 0, 0, 1, -1\n",
        b"END\n",
        b"Cars\n",
        b"0 0 0 0 1 2 3 0 0 0 0 0\n",
        b"End\n",
        b"# the end\n",
        b"\n",
    ];
    lines.concat()
}

/// `text` with every LF turned into CR LF.
pub fn crlf(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for &b in text {
        if b == b'\n' {
            out.push(b'\r');
        }
        out.push(b);
    }
    out
}

/// The text file with warnings of `ipl_text.rs` (offsets worked out there).
pub fn text_warnings() -> Vec<u8> {
    b"stray line\n# comment\nend\n\ncull\n1 2\nend\n  another stray\nzone\nz 1\n".to_vec()
}

/// A line of exactly `n` bytes, line break (`brk`) included, in a pass-through section.
pub fn long_line(n: usize, brk: &[u8]) -> Vec<u8> {
    assert!(n > 2 + brk.len());
    cat(&[b"1,", &vec![b'2'; n - 2 - brk.len()], brk])
}

/// Text files: every quirk, and some that fail.
pub fn text_fixtures() -> Vec<(String, Vec<u8>)> {
    let all = text_all_sections();
    let out: Vec<(&str, Vec<u8>)> = vec![
        ("all sections, LF", all.clone()),
        ("all sections, CRLF", crlf(&all)),
        ("all sections, no final line break", {
            let mut b = all.clone();
            b.truncate(b.len() - 1 - b"# the end\n".len());
            b.pop();
            b
        }),
        ("warnings", text_warnings()),
        ("warnings, CRLF", crlf(&text_warnings())),
        ("warnings, no final line break", {
            let mut b = text_warnings();
            b.pop();
            b
        }),
        (
            "lines of 255 and 256 bytes",
            cat(&[
                b"cull\n",
                &long_line(255, b"\n"),
                &long_line(256, b"\n"),
                &long_line(256, b"\r\n"),
                b"end\n",
            ]),
        ),
        (
            "line of 257 bytes",
            cat(&[b"cull\n", &long_line(257, b"\n"), b"end\n"]),
        ),
        (
            "unterminated last line of 255 bytes",
            cat(&[b"zone\n", &long_line(255, b"")]),
        ),
        ("malformed inst", {
            b"inst\n1, a, 0, 0, 0, 0, 0, 0, 0, 1, -1\n1, a, 0, 0, x, 0, 0, 0, 0, 1, -1\nend\n"
                .to_vec()
        }),
        ("malformed cars", {
            b"cars\n0 0 0 0 1 2 3 0 0 0 0 0\n0 0 0 0 1 2 3 0 0 0 0\nend\n".to_vec()
        }),
        ("short first lines", {
            b"a\nb\ninst\n1, a, 0, 0, 0, 0, 0, 0, 0, 1, -1\nend\n".to_vec()
        }),
        ("blank first lines, CRLF", {
            b"\r\n\r\ncull\r\n1 2\r\nend\r\n".to_vec()
        }),
        ("two bytes", b"ab".to_vec()),
        ("one line break", b"\n".to_vec()),
        ("section name only", b"inst".to_vec()),
    ];
    out.into_iter().map(|(n, b)| (n.to_string(), b)).collect()
}

/// Every fixture, binary then text.
pub fn all_fixtures() -> Vec<(String, Vec<u8>)> {
    let mut all = binary_fixtures();
    all.extend(text_fixtures());
    all
}

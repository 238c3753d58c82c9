//! Placement files (binary `bnry` and text IPL): fixture writers, reference decoder, and the
//! placement tests' way of running the kit's driver (`tests/decode/ipl_*.rs`).
//!
//! - [`hex`]: hand-written bytes, `// comments` allowed.
//! - [`Inst`] / [`Car`] and [`instance_bytes`] / [`car_bytes`] / [`bnry`]: binary fixtures
//!   written field by field from docs/FORMATS.md §4 (little-endian), never by the crate.
//! - [`drive`]: the kit's driver ([`crate::driver`]) with a file cut at chosen offsets; it
//!   re-feeds after pauses, follows seeks, keeps feeding after `Done` (trailing bytes),
//!   finishes, and checks the driver-level contract; events in the kit's log ([`crate::log`]).
//! - [`reference`]: a small whole-buffer decoder of both placement formats written from the
//!   spec alone (docs/FORMATS.md §4 and the issue), independent of the crate: which events, at which
//!   offsets, a correct decoder reports for any bytes, and where each record or line ends.
//! - [`binary_fixtures`] / [`text_fixtures`]: every file the chunking, truncation, pause,
//!   allocation and `Placement` tests run over.

use gtastream::{Decoder, ErrorKind, Format, Game, Options, WarningKind};

use crate::driver::drive_with;
use crate::log::Policy;

/// Unit sizes of the binary format (docs/FORMATS.md §4).
pub const HEADER: usize = 76;
pub const INSTANCE: usize = 40;
pub const CAR: usize = 48;
/// Longest text line, line break included (the issue).
pub const LINE_MAX: usize = 256;

/// The text IPL section names (docs/FORMATS.md §4).
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
            && self.ints() == o.ints()
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

    /// The eight integer values in file order, as [`new`](Car::new) takes them.
    pub fn ints(&self) -> [i32; 8] {
        [
            self.model_id,
            self.primary_color,
            self.secondary_color,
            self.flags,
            self.alarm_chance,
            self.door_lock_chance,
            self.min_delay,
            self.max_delay,
        ]
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

/// The 40 bytes of a binary instance (docs/FORMATS.md §4).
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

/// The 48 bytes of a binary car generator (docs/FORMATS.md §4).
pub fn car_bytes(c: &Car) -> [u8; CAR] {
    let mut out = Vec::with_capacity(CAR);
    for v in c.position.iter().chain([&c.angle]) {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for v in c.ints() {
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
    pub fn line(section: &str, text: &[u8], fields: &[&[u8]]) -> Ev {
        Ev::Line {
            section: section.to_owned(),
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
    reference_full(data, can_seek, None)
}

/// The reference decoding of `data` for a caller that names the game of a text file.
pub fn reference_game(data: &[u8], game: Game) -> Reference {
    reference_full(data, true, Some(game))
}

fn reference_full(data: &[u8], can_seek: bool, game: Option<Game>) -> Reference {
    if data.is_empty() {
        return Reference {
            events: vec![(Ev::Error(ErrorKind::Empty, 0), None)],
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
        reference_text(data, game)
    } else {
        Reference {
            events: vec![(Ev::Error(ErrorKind::BadMagic, 0), None)],
            line: None,
            seeks: false,
        }
    }
}

/// The magics of the binary formats (docs/FORMATS.md §1–4), placements last.
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

/// A blank as the games read a line: control characters and commas (docs/FORMATS.md §4).
fn is_blank(b: u8) -> bool {
    b <= b' ' || b == b','
}

/// A line without its line break and the blanks around it (as `SectionLine::text`).
pub fn trim(s: &[u8]) -> &[u8] {
    s.trim_ascii()
}

/// The fields of a line: runs between blanks.
pub fn split_fields(s: &[u8]) -> Vec<&[u8]> {
    s.split(|&b| is_blank(b))
        .filter(|f| !f.is_empty())
        .collect()
}

/// One `sscanf` conversion on a line where every blank is already a space.
#[derive(Clone, Copy)]
enum Conv {
    Int,
    Float,
    Word,
}

/// A value a conversion read.
#[derive(Clone, Copy)]
enum Val<'a> {
    I(i32),
    F(f32),
    W(&'a [u8]),
}

/// Runs `convs` over `line` (blanks as spaces) as `sscanf` does: the values, whether each
/// took a whole field, and the index where the text after the last one starts (blanks
/// skipped). `None` if a conversion fails.
fn sscanf<'a>(line: &'a [u8], convs: &[Conv]) -> Option<(Vec<Val<'a>>, bool, usize)> {
    let mut pos = 0;
    let mut whole = true;
    let mut out = Vec::new();
    for conv in convs {
        while pos < line.len() && line[pos] == b' ' {
            pos += 1;
        }
        let rest = &line[pos..];
        // The longest prefix of `rest` the conversion accepts.
        let len = match conv {
            Conv::Word => rest.iter().take_while(|&&b| b != b' ').count(),
            Conv::Int => (1..=rest.len())
                .rev()
                .find(|&n| is_int(&rest[..n]))
                .unwrap_or(0),
            Conv::Float => (1..=rest.len())
                .rev()
                .find(|&n| is_float(&rest[..n]))
                .unwrap_or(0),
        };
        if len == 0 {
            return None;
        }
        let token = &rest[..len];
        let text = std::str::from_utf8(token);
        out.push(match conv {
            Conv::Word => Val::W(token),
            Conv::Int => Val::I(text.ok()?.parse().ok()?),
            Conv::Float => Val::F(text.ok()?.parse().ok()?),
        });
        pos += len;
        whole &= pos == line.len() || line[pos] == b' ';
    }
    while pos < line.len() && line[pos] == b' ' {
        pos += 1;
    }
    Some((out, whole, pos))
}

/// `[+-]?[0-9]+`
fn is_int(t: &[u8]) -> bool {
    let digits = t.strip_prefix(b"+").or(t.strip_prefix(b"-")).unwrap_or(t);
    !digits.is_empty() && digits.iter().all(u8::is_ascii_digit)
}

/// `[+-]?(digits[.digits?] | .digits)([eE][+-]?digits)?`
fn is_float(t: &[u8]) -> bool {
    let t = t.strip_prefix(b"+").or(t.strip_prefix(b"-")).unwrap_or(t);
    let (mantissa, exponent) = match t.iter().position(|&b| b == b'e' || b == b'E') {
        Some(i) => (&t[..i], Some(&t[i + 1..])),
        None => (t, None),
    };
    let mut parts = mantissa.splitn(2, |&b| b == b'.');
    let int = parts.next().unwrap_or_default();
    let frac = parts.next().unwrap_or_default();
    let digits = |s: &[u8]| s.iter().all(u8::is_ascii_digit);
    let mantissa_ok = digits(int) && digits(frac) && int.len() + frac.len() > 0;
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(b"+").or(e.strip_prefix(b"-")).unwrap_or(e);
        !e.is_empty() && digits(e)
    });
    mantissa_ok && exponent_ok
}

use Conv::{Float as F, Int as I, Word as W};
const SA: [Conv; 11] = [I, W, I, F, F, F, F, F, F, F, I];
const VC: [Conv; 13] = [I, W, I, F, F, F, F, F, F, F, F, F, F];
const III: [Conv; 12] = [I, W, F, F, F, F, F, F, F, F, F, F];
const CARS: [Conv; 12] = [F, F, F, F, I, I, I, I, I, I, I, I];

/// The layouts (docs/FORMATS.md §4), by game.
fn layout(game: Game) -> &'static [Conv] {
    match game {
        Game::SanAndreas => &SA,
        Game::ViceCity => &VC,
        Game::Iii => &III,
    }
}

fn inst_of(vals: &[Val<'_>], game: Game) -> Inst {
    let f = |k: usize| match vals[k] {
        Val::F(v) => v,
        _ => unreachable!(),
    };
    let i = |k: usize| match vals[k] {
        Val::I(v) => v,
        _ => unreachable!(),
    };
    let name = match vals[1] {
        Val::W(w) => w,
        _ => unreachable!(),
    };
    match game {
        Game::SanAndreas => Inst::sa(
            i(0),
            name,
            i(2) as u32,
            [f(3), f(4), f(5)],
            [f(6), f(7), f(8), f(9)],
            i(10),
        ),
        Game::ViceCity => Inst::vc(
            i(0),
            name,
            i(2) as u32,
            [f(3), f(4), f(5)],
            [f(6), f(7), f(8)],
            [f(9), f(10), f(11), f(12)],
        ),
        Game::Iii => Inst::iii(
            i(0),
            name,
            [f(2), f(3), f(4)],
            [f(5), f(6), f(7)],
            [f(8), f(9), f(10), f(11)],
        ),
    }
}

fn car_of(vals: &[Val<'_>]) -> Car {
    let f = |k: usize| match vals[k] {
        Val::F(v) => v,
        _ => unreachable!(),
    };
    let i = |k: usize| match vals[k] {
        Val::I(v) => v,
        _ => unreachable!(),
    };
    Car::new(
        [f(0), f(1), f(2)],
        f(3),
        [i(4), i(5), i(6), i(7), i(8), i(9), i(10), i(11)],
    )
}

/// The layout of its field count, if the line has 11, 12 or 13 fields and scans whole under it.
fn deciding_layout(line: &[u8]) -> Option<Game> {
    let game = match split_fields(line).len() {
        11 => Game::SanAndreas,
        12 => Game::Iii,
        13 => Game::ViceCity,
        _ => return None,
    };
    sscanf(line, layout(game))
        .filter(|&(_, whole, rest)| whole && rest == line.len())
        .map(|_| game)
}

/// The guess for an `inst` line before the file's layout is known (the crate's documented
/// rule): the longest layout that leaves nothing or a comment, else the first that reads it,
/// San Andreas first.
fn guessed_layout(line: &[u8]) -> Game {
    for game in [Game::ViceCity, Game::Iii, Game::SanAndreas] {
        if let Some((_, _, rest)) = sscanf(line, layout(game)) {
            if rest == line.len() || line[rest] == b'#' {
                return game;
            }
        }
    }
    for game in [Game::SanAndreas, Game::ViceCity, Game::Iii] {
        if sscanf(line, layout(game)).is_some() {
            return game;
        }
    }
    Game::SanAndreas
}

/// Whether a line (blanks as spaces) is a placement record: an `inst` line that decides a
/// layout, or a `cars` line of 12 fields that scans with every conversion whole.
fn is_record_line(line: &[u8]) -> bool {
    deciding_layout(line).is_some()
        || (split_fields(line).len() == 12
            && sscanf(line, &CARS).is_some_and(|(_, whole, _)| whole))
}

/// Whether a line (blanks as spaces, from its first non-blank) is one bare word that opens a
/// section the games do not know: lower-case letters, digits and `_`, a letter first, at most
/// 16 bytes, not `end...` (docs/FORMATS.md §4.6).
fn bare_word(line: &[u8]) -> Option<String> {
    let word = line.trim_ascii_end();
    let ok = word.len() <= 16
        && word.first().is_some_and(u8::is_ascii_lowercase)
        && word
            .iter()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'_')
        && !word.starts_with(b"end");
    ok.then(|| String::from_utf8(word.to_vec()).unwrap())
}

/// Lines other than blanks and comments within which a text file shows itself a placement
/// file (the crate's `SNIFF_LINES`).
pub const SNIFF: usize = 8;

fn reference_text(data: &[u8], game: Option<Game>) -> Reference {
    let mut out = Reference {
        events: vec![],
        line: Some(0),
        seeks: false,
    };
    let refused = |line| Reference {
        events: vec![(Ev::Error(ErrorKind::BadMagic, 0), None)],
        line,
        seeks: false,
    };
    let mut layout_of_file = game;
    let mut known = false;
    let mut strays: Vec<(u64, u64)> = Vec::new();
    let mut section: Option<String> = None;
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
            if !known {
                return refused(Some(number));
            }
            out.events.push((Ev::Error(ErrorKind::Limit, at), None));
            return out;
        }
        let line_end = (start + len) as u64;
        let end = Some(line_end);
        start += len;
        let raw = &rest[..len];
        // The line as the game sees it: blanks as spaces, from the first non-blank.
        let spaced: Vec<u8> = raw
            .iter()
            .map(|&b| if is_blank(b) { b' ' } else { b })
            .collect();
        let first = spaced
            .iter()
            .position(|&b| b != b' ')
            .unwrap_or(spaced.len());
        let line = &spaced[first..];
        let line_text_at = at + first as u64;
        if line.is_empty() || line[0] == b'#' {
            continue;
        }
        let first_field = split_fields(line)[0];
        let keyword = SECTION_NAMES
            .iter()
            .copied()
            .find(|s| first_field.eq_ignore_ascii_case(s.as_bytes()));
        let word = if keyword.is_none() {
            bare_word(line)
        } else {
            None
        };
        if !known {
            if keyword.is_none() && word.is_none() && !is_record_line(line) {
                if strays.len() == SNIFF - 1 {
                    return refused(Some(number));
                }
                strays.push((at, line_end));
                continue;
            }
            known = true;
            out.events.push((Ev::text_file(), Some(0)));
            for &(s, e) in &strays {
                out.events
                    .push((Ev::Warning(WarningKind::LineOutsideSection, s), Some(e)));
            }
        }
        let text = trim(raw);
        let passed = |section: &str| Ev::Line {
            section: section.to_owned(),
            text: text.to_vec(),
            fields: split_fields(text).iter().map(|f| f.to_vec()).collect(),
        };
        // A section the games do not know is none to them: a section name opens its section.
        let unknown = section
            .as_deref()
            .is_some_and(|s| !SECTION_NAMES.contains(&s));
        if unknown && keyword.is_some() {
            section = None;
        }
        let Some(open) = section.clone() else {
            section = keyword.map(str::to_owned).or(word);
            if section.is_none() {
                out.events
                    .push((Ev::Warning(WarningKind::LineOutsideSection, at), end));
                out.events.push((passed(""), end));
            }
            continue;
        };
        if line.len() >= 3 && line[..3].eq_ignore_ascii_case(b"end") {
            section = None;
            continue;
        }
        let passed = passed(&open);
        let scanned = match open.as_str() {
            "inst" => {
                let game = layout_of_file.unwrap_or_else(|| match deciding_layout(line) {
                    Some(g) => {
                        layout_of_file = Some(g);
                        g
                    }
                    None => guessed_layout(line),
                });
                sscanf(line, layout(game)).map(|(v, _, r)| (Ev::Instance(inst_of(&v, game)), r))
            }
            "cars" => sscanf(line, &CARS).map(|(v, _, r)| (Ev::Car(car_of(&v)), r)),
            _ => {
                out.events.push((passed, end));
                continue;
            }
        };
        match scanned {
            Some((record, r)) => {
                if r < line.len() && line[r] != b'#' {
                    out.events.push((
                        Ev::Warning(WarningKind::TrailingText, line_text_at + r as u64),
                        end,
                    ));
                }
                out.events.push((record, end));
            }
            None => {
                out.events
                    .push((Ev::Warning(WarningKind::MalformedLine, at), end));
                out.events.push((passed, end));
            }
        }
    }
    if !known {
        if !strays.is_empty() {
            return refused(out.line);
        }
        out.events.push((Ev::text_file(), Some(0)));
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

/// The text file with every section, San Andreas `inst` lines and the quirks (LF endings).
pub fn text_all_sections() -> Vec<u8> {
    let lines: &[&[u8]] = &[
        b"# gtastream text IPL: every section\n",
        b"inst\n",
        b"1, lod_a, 0, 1.0, 2.0, 3.0, 0, 0, 0, 1, -1\n",
        b"2 lod_b 13 -1.5e2 +3 .5 0 0 0.5 1 5\n",
        b"3\tmdl_tab\t256\t4.25\t-8\t16\t0\t0\t-0.5\t0.75\t0\n",
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

/// A Vice City file: 13-field `inst` lines (the first decides), one with a trailing comment.
pub fn vice_city() -> Vec<u8> {
    b"# vc\ninst\n4, vc_obj, 2, 10, 20, 30, 1, 1.5, 2, 0, 0, 0, 1\n\
      5, vc_two, 0, -1.5, 2.5e1, 3, 1, 1, 1, 0, 0, 0.5, 0.8660254 # note\n\
      6, vc_bad, 0, 1, 2\nend\n"
        .to_vec()
}

/// A GTA III file: 12-field `inst` lines.
pub fn gta_iii() -> Vec<u8> {
    b"inst\n5, iii_obj, 100.5, -200.25, 7, 2, 2, 2, 0, 0, 1, 0\n\
      6 iii_two 1 2 3 1 1 1 0 0 0 1\nend\n"
        .to_vec()
}

/// What real San Andreas files hold, each line between good ones: a locale decimal comma, a
/// trailing comment, a broken float, a line cut short, a bad `cars` line.
pub fn sa_quirks() -> Vec<u8> {
    let lines: &[&[u8]] = &[
        b"# IPL generated from Max file\n",
        b"inst\n",
        b"1, good_a, 0, 1.0, 2.0, 3.0, 0, 0, 0, 1, -1\n",
        b"2, comma, 0, 2225.2, -1185.7, 2499,8149, 0.0, 0.0, 1.0, 1.62921e-007, -1\n",
        b"3, comment, 0, 1.5, 2.5, 3.5, 0, 0, 0, 1.0, -1   #### Aavts3_crb6qm11\n",
        b"4, broken, 0, 2\xb550.66, 1, 2, 0, 0, 0, 1, -1\n",
        b"5, cut_short, 0, 1.0, 2.0\n",
        b"6, good_b, 13, -8.742277657e-08, 2.173596769e-008, 5.48026173142e-05, 0, 0, 0, 1, 0\n",
        b"end\n",
        b"cars\n",
        b"1.0, 2.0, 3.0, 0.5, 400, -1, -1, 0, 0, 0, 0, 0\n",
        b"1.0, 2.0, 3.0, 0.5, 400, -1, -1, 0, 0, 0\n",
        b"4.0, 5.0, 6.0, 1.#QNAN, 401, -1, -1, 0, 0, 0, 0, 0\n",
        b"7.0, 8.0, 9.0, 0.25, 402, 1, 2, 3, 4, 5, 6, 7\n",
        b"end",
    ];
    lines.concat()
}

/// Text that is no placement file: a `Cargo.toml`'s first lines.
pub fn not_placement() -> Vec<u8> {
    b"[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
      [dependencies]\nnom = \"8\"\nheapless = \"0.9\"\n"
        .to_vec()
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
        ("vice city", vice_city()),
        ("gta iii", gta_iii()),
        ("san andreas quirks", sa_quirks()),
        ("san andreas quirks, CRLF", crlf(&sa_quirks())),
        ("inst lines before the keyword", {
            b"1, a, 0, 0, 0, 0, 0, 0, 0, 1, -1\r\ninst\r\n2, b, 0, 0, 0, 0, 0, 0, 0, 1, -1".to_vec()
        }),
        ("not a placement file", not_placement()),
        ("stray lines, then a keyword", {
            b"one\ntwo\nthree\nfour\nfive\nsix\nseven\ncull\n1\nend\n".to_vec()
        }),
        ("two bytes", b"ab".to_vec()),
        ("one byte", b"\n".to_vec()),
        ("one line break", b"\n".to_vec()),
        ("section name only", b"inst".to_vec()),
    ];
    out.into_iter().map(|(n, b)| (n.to_string(), b)).collect()
}

/// Every fixture, binary then text (text only if the core reads it: [`text_built_in`]).
pub fn all_fixtures() -> Vec<(String, Vec<u8>)> {
    let mut all = binary_fixtures();
    if text_built_in() {
        all.extend(text_fixtures());
    }
    all
}

/// Whether the core under test was built with text IPL (its default feature `ipl-text`):
/// without it, text input is an `Unsupported` error.
pub fn text_built_in() -> bool {
    struct Quiet;
    impl gtastream::Visitor for Quiet {}
    let result = gtastream::Decoder::new().decode_slice(b"inst\nend\n", &mut Quiet);
    result.map_err(|e| e.kind) != Err(gtastream::ErrorKind::Unsupported)
}

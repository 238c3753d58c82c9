//! The document of a file (and an archive's listing) in compact buffers, for JavaScript to wrap
//! without any JSON text: one pass of the decoder fills
//!
//! - `records`: numbers (f64) in a fixed order, read front to back by `bindings/js/src/view.ts`
//!   (the layout is written out there and in [`Document::finish`]); a name is two numbers, the
//!   start and length of its bytes in `names` (length -1: no name); an absent number is NaN;
//! - per bone, handed over as the bone ends (`bone_values`), its keyframes' floats: per frame
//!   time, rotation (4), then translation (3) and scale (3) when the bone stores them; as the
//!   f32 the decoder gives (`raw`), or as the f64 that `JSON.parse` reads from the library's
//!   JSON document (the shortest text of the f32);
//! - `names`: the bytes of every name, one character per byte (Latin-1).
//!
//! What goes in the document, and in which order, is that of `gtastream::json`: the events of
//! the core's decoder, nothing read from the file here.

use alloc::boxed::Box;
use alloc::vec::Vec;

use gtastream::archive::{ArchiveInfo, Entry};
use gtastream::{
    AnimationInfo, BoneInfo, FileInfo, Flow, Format, IplCar, IplInstance, Keyframes, SectionLine,
    Visitor, Warning,
};

/// Slots of the memo of [`JsonNumbers`]: keyframes repeat few values (the packed formats store
/// 16-bit integers; a ped.ifp-like package has about 10,000 distinct ones in 2 million).
const MEMO_SLOTS: usize = 1 << 14;

/// f32 → the f64 `JSON.parse` reads from the document's text of it (`gtastream::json::number`);
/// NaN for the non-finite values the document writes as `null`. Remembers recent ones.
pub struct JsonNumbers {
    memo: Box<[(u32, f64)]>,
}

impl JsonNumbers {
    fn new() -> Self {
        // An empty slot's key is a NaN's bits: NaN never reaches the memo.
        JsonNumbers {
            memo: alloc::vec![(u32::MAX, 0.0); MEMO_SLOTS].into_boxed_slice(),
        }
    }

    fn convert(&mut self, value: f32) -> f64 {
        let bits = value.to_bits();
        let slot = &mut self.memo[(bits.wrapping_mul(0x9E37_79B1) >> 18) as usize];
        if slot.0 != bits {
            *slot = (bits, gtastream::json::number(value).unwrap_or(f64::NAN));
        }
        slot.1
    }
}

/// The keyframe floats, as f32 or as the document's f64.
pub enum Values {
    Raw(Vec<f32>),
    Json(Vec<f64>, JsonNumbers),
}

/// Numbers and names of one part of the document.
#[derive(Default)]
struct Part {
    records: Vec<f64>,
    count: u32,
}

/// Collects the document of a file from the decoder's events (see the module's text).
pub struct Document {
    numbers: JsonNumbers,
    pub values: Values,
    pub names: Vec<u8>,
    format: Option<Format>,
    name: Option<(f64, f64)>,
    files: u32,
    warnings: Part,
    animations: Part,
    instances: Part,
    cars: Part,
    lines: Part,
    /// Where the open animation's bone count and the open bone's frame count go.
    bone_count_at: usize,
    frame_count_at: usize,
    translation: bool,
    scale: bool,
}

impl Document {
    pub fn new(raw: bool) -> Self {
        Document {
            numbers: JsonNumbers::new(),
            values: if raw {
                Values::Raw(Vec::new())
            } else {
                Values::Json(Vec::new(), JsonNumbers::new())
            },
            names: Vec::new(),
            format: None,
            name: None,
            files: 0,
            warnings: Part::default(),
            animations: Part::default(),
            instances: Part::default(),
            cars: Part::default(),
            lines: Part::default(),
            bone_count_at: 0,
            frame_count_at: 0,
            translation: false,
            scale: false,
        }
    }

    /// A name's two numbers: where its bytes start in `names`, and how many.
    fn name(&mut self, bytes: &[u8]) -> (f64, f64) {
        let start = self.names.len();
        self.names.extend_from_slice(bytes);
        (start as f64, bytes.len() as f64)
    }

    fn opt_name(&mut self, bytes: Option<&[u8]>) -> (f64, f64) {
        bytes.map_or((0.0, -1.0), |b| self.name(b))
    }

    /// The records in their order: placement (1 for a placement file, whose document lists
    /// instances, cars and section lines; 0 for animations), format, name, warnings, then the
    /// parts of the document's kind, each preceded by its count.
    pub fn finish(mut self) -> (Vec<f64>, Vec<u8>) {
        let placement = self.format.is_some_and(|f| !f.is_animation());
        let format = match self.format {
            Some(f) => self.name(f.name().as_bytes()),
            None => (0.0, -1.0),
        };
        let name = self.name.unwrap_or((0.0, -1.0));
        let mut records = Vec::new();
        records.extend([
            f64::from(u8::from(placement)),
            format.0,
            format.1,
            name.0,
            name.1,
        ]);
        let parts = if placement {
            alloc::vec![self.warnings, self.instances, self.cars, self.lines]
        } else {
            alloc::vec![self.warnings, self.animations]
        };
        for part in parts {
            records.push(f64::from(part.count));
            records.extend(part.records);
        }
        (records, self.names)
    }

    fn floats(&mut self, into: fn(&mut Self) -> &mut Part, values: &[f32]) {
        for &v in values {
            let v = self.numbers.convert(v);
            into(self).records.push(v);
        }
    }
}

impl Visitor for Document {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        // An ANLF container's blocks are one package, under the first one's name (as json).
        if self.files == 0 {
            self.format = Some(info.format);
            self.name = info.name.map(|n| self.name(n));
        }
        self.files += 1;
        Flow::Continue
    }

    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        let name = self.name(info.name);
        let duration = info.duration.map_or(f64::NAN, |d| self.numbers.convert(d));
        let number = |v: Option<u32>| v.map_or(f64::NAN, f64::from);
        let part = &mut self.animations;
        part.count += 1;
        part.records.extend([
            name.0,
            name.1,
            number(info.frame_data_size),
            number(info.flags),
            duration,
            0.0,
        ]);
        self.bone_count_at = part.records.len() - 1;
        Flow::Continue
    }

    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        let name = self.opt_name(info.name);
        let frame_type = self.name(info.frame_type.name().as_bytes());
        self.translation = info.frame_type.has_translation();
        self.scale = info.frame_type.has_scale();
        let contents = u8::from(self.translation) | u8::from(self.scale) << 1;
        let records = &mut self.animations.records;
        records[self.bone_count_at] += 1.0;
        records.extend([
            name.0,
            name.1,
            info.bone_id.map_or(f64::NAN, f64::from),
            info.bone_key.map_or(f64::NAN, f64::from),
            frame_type.0,
            frame_type.1,
            f64::from(contents),
            0.0,
        ]);
        self.frame_count_at = records.len() - 1;
        Flow::Continue
    }

    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        let (translation, scale) = (self.translation, self.scale);
        let mut count = 0;
        match &mut self.values {
            Values::Raw(values) => {
                for f in frames.iter() {
                    count += 1;
                    values.push(f.time);
                    values.extend_from_slice(&f.rotation);
                    if translation {
                        values.extend_from_slice(&f.translation);
                    }
                    if scale {
                        values.extend_from_slice(&f.scale);
                    }
                }
            }
            Values::Json(values, numbers) => {
                for f in frames.iter() {
                    count += 1;
                    values.push(numbers.convert(f.time));
                    values.extend(f.rotation.map(|v| numbers.convert(v)));
                    if translation {
                        values.extend(f.translation.map(|v| numbers.convert(v)));
                    }
                    if scale {
                        values.extend(f.scale.map(|v| numbers.convert(v)));
                    }
                }
            }
        }
        self.animations.records[self.frame_count_at] += f64::from(count);
        Flow::Continue
    }

    fn bone_end(&mut self) -> Flow {
        // Each bone's values go to JavaScript as it ends: the module holds one bone's at a time.
        let contents = u32::from(self.translation) | u32::from(self.scale) << 1;
        let (ptr, count) = match &self.values {
            Values::Raw(v) => (v.as_ptr().cast::<u8>(), v.len()),
            Values::Json(v, _) => (v.as_ptr().cast::<u8>(), v.len()),
        };
        // SAFETY: the import reads the values during the call.
        unsafe { crate::bone_values(ptr, count, contents) };
        match &mut self.values {
            Values::Raw(v) => v.clear(),
            Values::Json(v, _) => v.clear(),
        }
        Flow::Continue
    }

    fn instance(&mut self, i: &IplInstance<'_>) -> Flow {
        let name = self.opt_name(i.model_name);
        let part = &mut self.instances;
        part.count += 1;
        part.records
            .extend([f64::from(i.model_id), name.0, name.1, f64::from(i.interior)]);
        self.floats(|d| &mut d.instances, &i.position);
        self.floats(|d| &mut d.instances, &i.rotation);
        let has_scale = i.scale.is_some();
        self.instances.records.push(f64::from(u8::from(has_scale)));
        self.floats(|d| &mut d.instances, &i.scale.unwrap_or([0.0; 3]));
        self.instances.records.push(f64::from(i.lod));
        Flow::Continue
    }

    fn car(&mut self, c: &IplCar) -> Flow {
        self.cars.count += 1;
        self.floats(|d| &mut d.cars, &c.position);
        self.floats(|d| &mut d.cars, &[c.angle]);
        self.cars.records.extend(
            [
                c.model_id,
                c.primary_color,
                c.secondary_color,
                c.flags,
                c.alarm_chance,
                c.door_lock_chance,
                c.min_delay,
                c.max_delay,
            ]
            .map(f64::from),
        );
        Flow::Continue
    }

    fn section_line(&mut self, line: &SectionLine<'_>) -> Flow {
        let section = self.name(line.section.as_bytes());
        let text = self.name(line.text);
        self.lines.count += 1;
        self.lines
            .records
            .extend([section.0, section.1, text.0, text.1]);
        Flow::Continue
    }

    fn warning(&mut self, w: Warning) -> Flow {
        let kind = self.name(w.kind.name().as_bytes());
        let reason = self.name(w.kind.reason().as_bytes());
        self.warnings.count += 1;
        self.warnings
            .records
            .extend([kind.0, kind.1, reason.0, reason.1, w.offset as f64]);
        Flow::Continue
    }
}

/// An archive's listing (`gtastream ls --json`): the version's name, then the count and per
/// entry its name, offset, size and format's name (length -1: none).
#[derive(Default)]
pub struct Listing {
    pub records: Vec<f64>,
    pub names: Vec<u8>,
    count: u32,
}

impl Listing {
    fn name(&mut self, bytes: &[u8]) -> [f64; 2] {
        let start = self.names.len();
        self.names.extend_from_slice(bytes);
        [start as f64, bytes.len() as f64]
    }

    pub fn archive(&mut self, info: &ArchiveInfo) {
        let version = self.name(info.version.name().as_bytes());
        self.records.extend(version);
        self.records.push(0.0);
    }

    pub fn entry(&mut self, entry: &Entry<'_>) {
        self.count += 1;
        self.records[2] = f64::from(self.count);
        let name = self.name(entry.name);
        let format = match entry.format {
            Some(f) => self.name(f.name().as_bytes()),
            None => [0.0, -1.0],
        };
        self.records.extend(name);
        self.records
            .extend([entry.offset as f64, entry.size as f64]);
        self.records.extend(format);
    }
}

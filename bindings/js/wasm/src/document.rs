//! The document of a file (and an archive's listing) in compact buffers, for JavaScript to wrap
//! without any JSON text: one pass of the decoder fills
//!
//! - `records`: numbers (f64) in a fixed order, read front to back by `bindings/js/src/view.ts`
//!   (the layout is written out there and in [`Document::finish`]); a name is two numbers, the
//!   start and length of its bytes in `names` (length -1: no name); an absent number is NaN;
//! - per bone, handed over as the bone ends (`bone_values`), its keyframes' floats: per frame
//!   time, rotation (4), then translation (3) and scale (3) when the bone stores them; as the
//!   f32 the decoder gives (`raw`), or as the f64 that `JSON.parse` reads from the library's
//!   JSON document (the shortest text of the f32). In the latter each time is the index of its
//!   value in a table of the document's distinct times (0: none, the JSON's `null`), and the
//!   values begin with the count of the times new to the table, then those times: JavaScript
//!   then holds each distinct time once, whichever frames share it;
//! - `names`: the bytes of every name, one character per byte (Latin-1), and of every unit as
//!   stored (`raw`, `trailing`, an ANLF block's header, a text IPL's lines: docs/FORMATS.md
//!   §9.7), which JavaScript hands out as views (a line as a string).
//!
//! The document is decoded from 64 KiB pieces ([`gts_document_new`] and the calls after it), and
//! each animation's records and names go to JavaScript as it ends (`document_part`): the
//! module holds neither the whole file nor the whole document. [`gts_write`] takes a document
//! back in buffers of the same kind and writes it with the library's encoder.
//!
//! What goes in the document, and in which order, is that of `gtastream::json`: the events of
//! the core's decoder, nothing read from the file here.

use alloc::boxed::Box;
use alloc::vec::Vec;

use gtastream::archive::{ArchiveInfo, Entry};
use gtastream::context::{Context, Tracked};
use gtastream::model::ModelBuilder;
use gtastream::record::{FieldType, RecordKind, Value};
use gtastream::Summarizer;
use gtastream::{
    AnimationInfo, BoneInfo, FileInfo, Flow, Format, FrameType, Keyframes, Record, Unit, Visitor,
    Warning,
};

/// A name's two numbers where there is none.
const NO_NAME: (f64, f64) = (0.0, -1.0);

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

/// The keyframe floats, as f32 or as the document's f64 (times as indices in `Times`).
pub enum Values {
    Raw(Vec<f32>),
    Json(Vec<f64>, Times),
}

/// The distinct times handed over so far, by their f32 bits: index 0 is none (non-finite),
/// the first time 1. An open-addressing table, grown at half full.
#[derive(Default)]
pub struct Times {
    /// (bits + 1, index); 0: an empty slot.
    slots: Vec<(u64, u32)>,
    count: u32,
    /// The times new since the last bone was handed over.
    new: Vec<f64>,
}

impl Times {
    fn slot(slots: &[(u64, u32)], bits: u32) -> usize {
        let mask = slots.len() - 1;
        let mut at = (bits.wrapping_mul(0x9E37_79B1) >> 8) as usize & mask;
        while slots[at].0 != 0 && slots[at].0 != u64::from(bits) + 1 {
            at = (at + 1) & mask;
        }
        at
    }

    /// The index of `time` (`json`: the document's f64 of it, NaN for none), added if new.
    fn index(&mut self, time: f32, json: f64) -> f64 {
        if json.is_nan() {
            return 0.0;
        }
        if 2 * (self.count as usize + 1) > self.slots.len() {
            let size = (self.slots.len() * 2).max(256);
            let old = core::mem::replace(&mut self.slots, alloc::vec![(0, 0); size]);
            for (key, index) in old.into_iter().filter(|s| s.0 != 0) {
                let at = Self::slot(&self.slots, (key - 1) as u32);
                self.slots[at] = (key, index);
            }
        }
        let bits = time.to_bits();
        let at = Self::slot(&self.slots, bits);
        if self.slots[at].0 == 0 {
            self.count += 1;
            self.slots[at] = (u64::from(bits) + 1, self.count);
            self.new.push(json);
        }
        f64::from(self.slots[at].1)
    }
}

/// Numbers and names of one part of the document.
#[derive(Default)]
struct Part {
    records: Vec<f64>,
    count: f64,
}

impl Part {
    /// The part as a null (its count -1) if `null`.
    fn null_if(self, null: bool) -> Part {
        if null {
            Part {
                records: Vec::new(),
                count: -1.0,
            }
        } else {
            self
        }
    }

    /// One more entry, of these records.
    fn push<const N: usize>(&mut self, records: [f64; N]) {
        self.count += 1.0;
        self.records.extend(records);
    }
}

/// Collects the document of a file from the decoder's events (see the module's text).
pub struct Document {
    numbers: JsonNumbers,
    pub values: Values,
    pub names: Vec<u8>,
    /// Bytes of names handed over already (`document_part`): where `names` begins.
    names_base: usize,
    /// The frame types' names written so far, each once (JavaScript then makes one string).
    frame_types: Vec<(FrameType, (f64, f64))>,
    format: Option<Format>,
    name: Option<(f64, f64)>,
    /// The first file's header as stored, and the bytes after the content.
    raw: (f64, f64),
    trailing: Vec<u8>,
    files: u32,
    warnings: Part,
    animations: Part,
    instances: Part,
    cars: Part,
    lines: Part,
    /// An IDE file's model definitions.
    objects: Part,
    /// A placement file's lines and records in file order (`stored`): per entry the item
    /// (0 instance, 1 car, 2 section line, 3 text, 4 IDE object), its index (NaN for text)
    /// and its line.
    stored: Part,
    /// A car came before an instance: a binary IPL's lists in their order are not the file.
    cars_first: bool,
    /// An ANLF's blocks (`blocks`: per block its name, header and count of animations), and
    /// the container's stored size; none for another file.
    blocks: Part,
    container_size: Option<u32>,
    /// Where the open animation's bone count and the open bone's frame count go.
    bone_count_at: usize,
    frame_count_at: usize,
    translation: bool,
    scale: bool,
    /// The open animation's latest finite keyframe time (IFPReader's duration where the file
    /// stores none).
    latest: f32,
    /// Where the decoder is: the animation, bone and line of each warning.
    context: Context,
    /// The document's animations' summaries (not made for the raw floats of `IFPReader`, whose
    /// objects have none).
    summary: Option<Summarizer>,
    /// A model (DFF): gathered from its records; its document is the library's own text
    /// (`Model::write_json`), handed over whole.
    model: Option<ModelBuilder>,
}

impl Document {
    pub fn new(raw: bool) -> Self {
        Document {
            numbers: JsonNumbers::new(),
            values: if raw {
                Values::Raw(Vec::new())
            } else {
                Values::Json(Vec::new(), Times::default())
            },
            names: Vec::new(),
            names_base: 0,
            frame_types: Vec::new(),
            format: None,
            name: None,
            raw: NO_NAME,
            trailing: Vec::new(),
            files: 0,
            warnings: Part::default(),
            animations: Part::default(),
            instances: Part::default(),
            cars: Part::default(),
            lines: Part::default(),
            objects: Part::default(),
            stored: Part::default(),
            cars_first: false,
            blocks: Part::default(),
            container_size: None,
            bone_count_at: 0,
            frame_count_at: 0,
            translation: false,
            scale: false,
            latest: 0.0,
            context: Context::default(),
            summary: (!raw).then(Summarizer::new),
            model: None,
        }
    }

    /// A name's two numbers: where its bytes start in `names`, and how many.
    fn name(&mut self, bytes: &[u8]) -> (f64, f64) {
        let start = self.names_base + self.names.len();
        self.names.extend_from_slice(bytes);
        (start as f64, bytes.len() as f64)
    }

    fn opt_name(&mut self, bytes: Option<&[u8]>) -> (f64, f64) {
        bytes.map_or(NO_NAME, |b| self.name(b))
    }

    /// Stored bytes: none (-1) where the decoder keeps none.
    fn stored(&mut self, bytes: &[u8]) -> (f64, f64) {
        self.opt_name((!bytes.is_empty()).then_some(bytes))
    }

    /// The records in their order: placement (1 for a placement file, whose document lists
    /// instances, cars, section lines and the stored order; 0 for animations, which list the
    /// blocks, then the container's size, then the animations), format, name, raw, trailing,
    /// warnings, then the parts of the document's kind, each preceded by its count (-1: the
    /// part is null); the names
    /// since the last `document_part`. The animations' records were handed over as parts, in
    /// order: they follow these records (and these names follow theirs).
    pub fn finish(mut self) -> (Vec<f64>, Vec<u8>) {
        // A model: 2, then its document's text (as `dump --json` prints it).
        if let Some(model) = self.model.take() {
            let mut text = alloc::string::String::new();
            // Writing to a String does not fail.
            let _ = model.model.write_json(&mut text);
            let text = self.name(text.as_bytes());
            return (alloc::vec![2.0, text.0, text.1], self.names);
        }
        let placement = self.format.is_some_and(|f| !f.is_animation());
        let format = match self.format {
            Some(f) => self.name(f.name().as_bytes()),
            None => NO_NAME,
        };
        let name = self.name.unwrap_or(NO_NAME);
        let trailing = core::mem::take(&mut self.trailing);
        let trailing = self.stored(&trailing);
        let parts = if placement {
            // A binary IPL's records in the lists' order (instances, then cars) are the file.
            let in_order = self.format == Some(Format::IplBinary) && !self.cars_first;
            let stored = self.stored.null_if(in_order);
            if self.format == Some(Format::Ide) {
                // An IDE: its definitions and other lines.
                alloc::vec![self.warnings, self.objects, self.lines, stored]
            } else {
                alloc::vec![self.warnings, self.instances, self.cars, self.lines, stored]
            }
        } else {
            let mut blocks = self.blocks.null_if(self.container_size.is_none());
            // The container's size follows the blocks.
            blocks
                .records
                .push(self.container_size.map_or(f64::NAN, f64::from));
            alloc::vec![self.warnings, blocks, self.animations]
        };
        let size = parts.iter().map(|p| 1 + p.records.len()).sum::<usize>();
        let mut records = Vec::with_capacity(9 + size);
        records.extend([
            f64::from(u8::from(placement)),
            format.0,
            format.1,
            name.0,
            name.1,
            self.raw.0,
            self.raw.1,
            trailing.0,
            trailing.1,
        ]);
        for part in parts {
            records.push(part.count);
            records.extend(part.records);
        }
        (records, self.names)
    }

    /// A placement file's next line or record as stored: `item` (see `stored`), its index in
    /// its list, its line.
    fn keep(&mut self, item: u8, index: f64, raw: &[u8]) {
        let raw = self.stored(raw);
        self.stored.push([f64::from(item), index, raw.0, raw.1]);
    }

    /// A record's fields as the document has them, walked from the core's declaration (the
    /// order `RECORD_KINDS` of `records.ts` gives): integers, floats as the document's
    /// numbers, text as a name; before an optional field 0 (null, nothing follows) or 1.
    fn push_record(&mut self, into: fn(&mut Self) -> &mut Part, record: &Record<'_>) {
        let schema = record.kind().schema();
        for (i, field) in schema.fields.iter().enumerate() {
            if !field.in_document {
                continue;
            }
            let value = record.value(i);
            if field.optional {
                let present = value != Value::Null;
                into(self).records.push(f64::from(u8::from(present)));
            }
            match value {
                Value::Null => {}
                Value::I32(v) => into(self).records.push(f64::from(v)),
                Value::U32(v) => into(self).records.push(f64::from(v)),
                Value::U64(v) => into(self).records.push(v as f64),
                Value::F32(v) => self.floats(into, &[v]),
                Value::Floats(v) => self.floats(into, v),
                Value::Text(v) => {
                    let name = self.name(v);
                    into(self).records.extend([name.0, name.1]);
                }
            }
        }
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
            if info.format == Format::Dff {
                self.model = Some(ModelBuilder::default());
            }
            self.name = info.name.map(|n| self.name(n));
            self.raw = self.stored(info.raw);
            self.container_size = info.container_size;
        }
        // An ANLF's block (its one file event of no name: no block).
        if let Some(name) = info.name.filter(|_| self.container_size.is_some()) {
            let name = self.name(name);
            let raw = self.stored(info.raw);
            self.blocks.push([name.0, name.1, raw.0, raw.1, 0.0]);
        }
        if let Some(model) = &mut self.model {
            model.file(info);
        }
        self.files += 1;
        self.context.file();
        Flow::Continue
    }

    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        self.context.animation(info);
        if let Some(summary) = &mut self.summary {
            summary.animation(info);
        }
        let name = self.name(info.name);
        let raw = self.stored(info.raw);
        let duration = info.duration.map_or(f64::NAN, |d| self.numbers.convert(d));
        let number = |v: Option<u32>| v.map_or(f64::NAN, f64::from);
        self.latest = 0.0;
        if let Some(count) = self.blocks.records.last_mut() {
            *count += 1.0;
        }
        let part = &mut self.animations;
        part.count += 1.0;
        part.records.extend([
            name.0,
            name.1,
            number(info.frame_data_size),
            number(info.flags),
            duration,
            raw.0,
            raw.1,
            0.0,
        ]);
        self.bone_count_at = part.records.len() - 1;
        Flow::Continue
    }

    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        self.context.bone(info);
        if let Some(summary) = &mut self.summary {
            summary.bone(info);
        }
        let name = self.opt_name(info.name);
        let frame_type = match self.frame_types.iter().find(|(t, _)| *t == info.frame_type) {
            Some(&(_, name)) => name,
            None => {
                let name = self.name(info.frame_type.name().as_bytes());
                self.frame_types.push((info.frame_type, name));
                name
            }
        };
        let raw = self.stored(info.raw);
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
            raw.0,
            raw.1,
            f64::from(contents),
            0.0,
        ]);
        self.frame_count_at = records.len() - 1;
        Flow::Continue
    }

    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        if let Some(summary) = &mut self.summary {
            summary.keyframes(frames);
        }
        let (translation, scale) = (self.translation, self.scale);
        let mut count = 0;
        match &mut self.values {
            Values::Raw(values) => {
                for f in frames.iter() {
                    count += 1;
                    if f.time > self.latest && f.time != f32::INFINITY {
                        self.latest = f.time;
                    }
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
            Values::Json(values, times) => {
                let numbers = &mut self.numbers;
                for f in frames.iter() {
                    count += 1;
                    let time = numbers.convert(f.time);
                    values.push(times.index(f.time, time));
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
        self.context.bone_end();
        // Each bone's values go to JavaScript as it ends: the module holds one bone's at a time.
        let contents = u32::from(self.translation) | u32::from(self.scale) << 1;
        match &mut self.values {
            Values::Raw(v) => {
                // SAFETY: the import reads the values during the call.
                unsafe { crate::bone_values(v.as_ptr().cast(), v.len(), contents) };
                v.clear();
            }
            Values::Json(v, times) => {
                // The times new to the table lead: their count, then the times.
                let new = core::mem::take(&mut times.new);
                v.splice(0..0, [new.len() as f64].into_iter().chain(new));
                // SAFETY: as above.
                unsafe { crate::bone_values(v.as_ptr().cast(), v.len(), contents) };
                v.clear();
            }
        }
        Flow::Continue
    }

    /// After its bones, the animation's summary as the document's text of it (a name: its
    /// bytes in `names`), or no name where none is made; then its latest keyframe time (raw
    /// floats only, else 0).
    fn animation_end(&mut self) -> Flow {
        self.context.animation_end();
        let text = self.summary.as_mut().map(|summary| {
            let mut text = alloc::string::String::new();
            // A String takes all text.
            let _ = gtastream::json::write_summary(&mut text, &summary.animation_end());
            text
        });
        let name = self.opt_name(text.as_deref().map(str::as_bytes));
        let latest = f64::from(self.latest);
        let records = &mut self.animations.records;
        records.extend([name.0, name.1, latest]);
        // The animation is complete: it goes to JavaScript, so that the module's memory holds
        // one animation's records and names at a time, not the document's.
        // SAFETY: the import copies the buffers during the call.
        unsafe {
            crate::document_part(
                records.as_ptr(),
                records.len(),
                self.names.as_ptr(),
                self.names.len(),
            )
        };
        records.clear();
        self.names_base += self.names.len();
        self.names.clear();
        Flow::Continue
    }

    fn record(&mut self, record: &Record<'_>) -> Flow {
        if let Some(model) = &mut self.model {
            return model.record(record);
        }
        match record {
            Record::Instance(_) => {
                self.cars_first |= self.cars.count > 0.0;
                self.keep(0, self.instances.count, record.raw());
                self.instances.count += 1.0;
                self.push_record(|d| &mut d.instances, record);
                Flow::Continue
            }
            Record::Car(_) => {
                self.keep(1, self.cars.count, record.raw());
                self.cars.count += 1.0;
                self.push_record(|d| &mut d.cars, record);
                Flow::Continue
            }
            Record::SectionLine(_) => {
                self.keep(2, self.lines.count, record.raw());
                self.lines.count += 1.0;
                self.push_record(|d| &mut d.lines, record);
                Flow::Continue
            }
            Record::IdeObject(_) => {
                self.keep(4, self.objects.count, record.raw());
                self.objects.count += 1.0;
                self.push_record(|d| &mut d.objects, record);
                Flow::Continue
            }
            _ => Flow::Continue,
        }
    }

    fn text_line(&mut self, raw: &[u8]) -> Flow {
        self.keep(3, f64::NAN, raw);
        Flow::Continue
    }

    fn trailing(&mut self, bytes: &[u8]) -> Flow {
        self.trailing.extend_from_slice(bytes);
        Flow::Continue
    }

    /// A warning, then where it was reported: the animation's and the bone's index and the
    /// line (NaN: none), as the library's document gives them.
    fn warning(&mut self, w: Warning) -> Flow {
        let kind = self.name(w.kind.name().as_bytes());
        let reason = self.name(w.kind.reason().as_bytes());
        let index =
            |item: Option<gtastream::context::Item>| item.map_or(f64::NAN, |i| i.index.into());
        let context = self.context;
        self.warnings.count += 1.0;
        self.warnings.records.extend([
            kind.0,
            kind.1,
            reason.0,
            reason.1,
            w.offset as f64,
            index(context.animation),
            index(context.bone),
            context.line.map_or(f64::NAN, f64::from),
        ]);
        Flow::Continue
    }

    fn unit(&mut self, unit: &Unit<'_>) {
        self.context.unit(unit);
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

/// A document decoded piece by piece: the decoder and what it has collected.
pub struct DocumentStream {
    decoder: gtastream::Decoder,
    /// The document, its events tracked for an error's context.
    doc: Tracked<Document>,
}

/// A new document decoder (`raw`: keyframe floats as f32, else as the JSON document's f64).
#[no_mangle]
pub extern "C" fn gts_document_new(can_seek: u32, raw: u32) -> *mut DocumentStream {
    let options = gtastream::Options {
        can_seek: can_seek != 0,
        game: None,
    };
    Box::into_raw(Box::new(DocumentStream {
        decoder: gtastream::Decoder::with_options(options),
        doc: Tracked::new(Document::new(raw != 0)),
    }))
}

/// # Safety
/// `stream` comes from [`gts_document_new`] and is freed once.
#[no_mangle]
pub unsafe extern "C" fn gts_document_free(stream: *mut DocumentStream) {
    drop(Box::from_raw(stream));
}

/// Feeds the first `len` bytes of the input buffer (`gts_input`), handing over each bone's
/// values as it ends, then what the feed did to `progress`. Returns 0, or 1 after reporting
/// the error with its context (`failure`).
///
/// # Safety
/// `stream` comes from [`gts_document_new`]; `len` is at most the input buffer's size.
#[no_mangle]
pub unsafe extern "C" fn gts_document_feed(stream: *mut DocumentStream, len: usize) -> u32 {
    let input = &(&*crate::INPUT.0.get())[..len.min(crate::INPUT_SIZE)];
    let stream = &mut *stream;
    match stream.doc.feed(&mut stream.decoder, input) {
        Ok(progress) => crate::report_feed(Ok(progress)),
        Err(failure) => crate::report_failure(&failure),
    }
}

/// Ends the input and hands the document over to `document`. Returns 0, or 1 after reporting
/// the error with its context. The stream is spent: only [`gts_document_free`] may follow.
///
/// # Safety
/// As [`gts_document_feed`].
#[no_mangle]
pub unsafe extern "C" fn gts_document_finish(stream: *mut DocumentStream) -> u32 {
    let stream = &mut *stream;
    if let Err(failure) = stream.doc.finish(&mut stream.decoder) {
        return crate::report_failure(&failure);
    }
    crate::hand_over(core::mem::replace(
        &mut stream.doc.inner,
        Document::new(true),
    ));
    0
}

/// Reads a document handed back for writing (see [`gts_write`]) front to back.
#[derive(Clone, Copy)]
struct Written<'a> {
    records: &'a [f64],
    bytes: &'a [u8],
    values: &'a [f32],
    at: usize,
    value_at: usize,
}

impl<'a> Written<'a> {
    fn number(&mut self) -> f64 {
        let value = self.records.get(self.at).copied().unwrap_or(f64::NAN);
        self.at += 1;
        value
    }

    /// A count or another integer (a missing or broken one is 0).
    fn int(&mut self) -> i64 {
        let value = self.number();
        if value.is_finite() {
            value as i64
        } else {
            0
        }
    }

    fn opt_int(&mut self) -> Option<i64> {
        let value = self.number();
        value.is_finite().then_some(value as i64)
    }

    /// Bytes: a start and a length in `bytes` (-1: none).
    fn bytes(&mut self) -> Option<&'a [u8]> {
        let (start, len) = (self.int(), self.int());
        let start = usize::try_from(start).ok()?;
        let len = usize::try_from(len).ok()?;
        self.bytes.get(start..start.checked_add(len)?)
    }

    /// A name: as [`bytes`](Self::bytes), length -2 for a name that is not Latin-1 (a
    /// character past U+00FF, which no file can hold).
    fn name(&mut self) -> Result<Option<&'a [u8]>, gtastream::encode::EncodeError> {
        if self.records.get(self.at + 1) == Some(&-2.0) {
            self.at += 2;
            return Err(gtastream::encode::EncodeError::BadName);
        }
        Ok(self.bytes())
    }

    /// A list after its count: -1 (or another negative count) is none (the document's null).
    fn list<T>(
        &mut self,
        mut item: impl FnMut(&mut Self) -> Result<T, gtastream::encode::EncodeError>,
    ) -> Result<Option<Vec<T>>, gtastream::encode::EncodeError> {
        let count = self.int();
        if count < 0 {
            return Ok(None);
        }
        // The records bound the count: each item takes at least one.
        let mut out = Vec::with_capacity((count as usize).min(self.records.len()));
        for _ in 0..count {
            out.push(item(self)?);
        }
        Ok(Some(out))
    }

    /// A record of `kind` as `convert.ts` writes any record: its document's fields in declared
    /// order, an optional one after 0 (null) or 1 (the order `Document::push_record` writes).
    fn record(&mut self, kind: RecordKind) -> Result<Record<'a>, gtastream::encode::EncodeError> {
        let schema = kind.schema();
        let mut record = Record::new(kind);
        for (i, field) in schema.fields.iter().enumerate() {
            if !field.in_document {
                continue;
            }
            if field.optional && self.int() == 0 {
                let _ = record.set(i, Value::Null);
                continue;
            }
            let value = match field.ty {
                FieldType::I32 => Value::I32(self.int() as i32),
                FieldType::U32 => Value::U32(self.int() as u32),
                FieldType::U64 => Value::U64(self.int() as u64),
                FieldType::F32 => Value::F32(self.number() as f32),
                // The floats come in `values` (f32), which the record may borrow while it
                // copies them.
                FieldType::Floats(n) => {
                    let at = self.value_at;
                    self.value_at += n;
                    let floats = self.values.get(at..at + n);
                    /// Past the values handed over: NaN, as `values` reads them.
                    static NAN: [f32; 16] = [f32::NAN; 16];
                    Value::Floats(floats.unwrap_or(&NAN[..n.min(16)]))
                }
                FieldType::Text => Value::Text(self.name()?.unwrap_or_default()),
            };
            // Text of a kind that takes ASCII only (a section's name) refuses other bytes.
            record
                .set(i, value)
                .map_err(|_| gtastream::encode::EncodeError::BadName)?;
        }
        Ok(record)
    }

    fn values<const N: usize>(&mut self) -> [f32; N] {
        let mut out = [f32::NAN; N];
        if let Some(v) = self.values.get(self.value_at..self.value_at + N) {
            out.copy_from_slice(v);
        }
        self.value_at += N;
        out
    }
}

/// One animation of the document, with its bones, to the encoder.
fn write_animation<S: gtastream::encode::Sink>(
    r: &mut Written<'_>,
    encoder: &mut gtastream::encode::Encoder<S>,
) -> Result<(), gtastream::encode::EncodeError> {
    use gtastream::encode::{BoneHeader, EncodeError};
    use gtastream::Keyframe;
    let name = r.name()?.unwrap_or_default();
    let raw = r.bytes().unwrap_or_default();
    encoder.animation_raw(name, raw)?;
    for _ in 0..r.int() {
        let name = r.name()?;
        let bone_id = r.opt_int().map(|v| v as i32);
        let bone_key = r.opt_int().map(|v| v as u32);
        let frame_type = r.bytes().unwrap_or_default();
        let frame_type = FrameType::named(frame_type).ok_or(EncodeError::OutOfOrder)?;
        let raw = r.bytes().unwrap_or_default();
        let contents = r.int();
        let header = BoneHeader {
            name,
            bone_id,
            bone_key,
            frame_type,
        };
        encoder.bone_raw(&header, raw)?;
        for _ in 0..r.int() {
            let mut frame = Keyframe::default();
            [frame.time] = r.values();
            frame.rotation = r.values();
            if contents & 1 != 0 {
                frame.translation = r.values();
            }
            if contents & 2 != 0 {
                frame.scale = r.values();
            }
            encoder.keyframe(&frame)?;
        }
        encoder.bone_end()?;
    }
    encoder.animation_end()?;
    Ok(())
}

/// Feeds the encoder the document's events, in the order of the buffers (see [`gts_write`]).
fn write_document<S: gtastream::encode::Sink>(
    r: &mut Written<'_>,
    encoder: &mut gtastream::encode::Encoder<S>,
) -> Result<(), gtastream::encode::EncodeError> {
    use gtastream::encode::EncodeError;
    let source = r.bytes().and_then(Format::named);
    if let Some(source) = source {
        if source.is_animation() != encoder.format().is_animation() {
            return Err(EncodeError::CannotConvert(source, encoder.format()));
        }
        encoder.source(source);
    }
    let name = r.name()?;
    let raw = r.bytes().unwrap_or_default();
    let trailing = r.bytes().unwrap_or_default();
    let blocks = r.list(|r| Ok((r.name()?, r.bytes(), r.int())))?;
    let container_size = r.opt_int().map(|v| v as u32);
    let mut animations = r.int();
    match (blocks, container_size) {
        // An ANLF: each block its own file event, with its share of the animations; the first
        // block's name and header are the document's.
        (Some(blocks), Some(size)) if !blocks.is_empty() => {
            for (k, &(block_name, block_raw, count)) in blocks.iter().enumerate() {
                let (name, raw) = if k == 0 {
                    (name, raw)
                } else {
                    (block_name, block_raw.unwrap_or_default())
                };
                encoder.file_in_container(name, raw, size)?;
                let count = if k + 1 == blocks.len() {
                    animations
                } else {
                    count.clamp(0, animations)
                };
                for _ in 0..count {
                    write_animation(r, encoder)?;
                }
                animations -= count;
            }
        }
        (blocks, size) => {
            // An ANLF of no blocks: its one file event.
            match size.filter(|_| blocks.is_some()) {
                Some(size) => encoder.file_in_container(name, raw, size)?,
                None => encoder.file_raw(name, raw)?,
            }
            for _ in 0..animations {
                write_animation(r, encoder)?;
            }
        }
    }
    let instances = r.list(|r| r.record(RecordKind::Instance))?;
    let cars = r.list(|r| r.record(RecordKind::Car))?;
    let lines = r.list(|r| r.record(RecordKind::SectionLine))?;
    let objects = r.list(|r| r.record(RecordKind::IdeObject))?;
    let stored = r.list(|r| Ok((r.int(), r.opt_int(), r.name()?.unwrap_or_default())))?;
    // By the stored items' numbers (3, text, has no list).
    let lists = [
        instances.unwrap_or_default(),
        cars.unwrap_or_default(),
        lines.unwrap_or_default(),
        Vec::new(),
        objects.unwrap_or_default(),
    ];
    // The file's lines and records in their stored order (as `encode::placement` replays a
    // `Placement`), then those the document has beyond them.
    let mut written = [0; 5];
    for (item, index, raw) in stored.unwrap_or_default() {
        let Some(i) = index.and_then(|i| usize::try_from(i).ok()) else {
            if item == 3 {
                encoder.text_line(raw)?;
            }
            continue;
        };
        let Some(list) = usize::try_from(item).ok().and_then(|k| lists.get(k)) else {
            continue;
        };
        // A record removed since.
        let Some(&record) = list.get(i) else {
            continue;
        };
        let mut record = record;
        record.set_raw(raw);
        encoder.record(&record)?;
        let at = &mut written[item as usize];
        *at = (*at).max(i + 1);
    }
    for (list, &from) in lists.iter().zip(&written) {
        for record in &list[from.min(list.len())..] {
            encoder.record(record)?;
        }
    }
    if !trailing.is_empty() {
        encoder.trailing(trailing)?;
    }
    encoder.end()
}

/// Writes a document handed back in buffers as `format` (its own when `format_len` is 0),
/// the bytes going to `output`: `records` (f64; names and stored units as start and length in
/// `bytes`) hold the format, name, raw and trailing; an ANLF's blocks (each its name, raw and
/// count of animations) and container size; the animations, each with its name, raw and bones;
/// each bone with its name, id, key, frame type, raw, contents (bit 0 translation, bit 1 scale)
/// and frame count; then the instances, cars, section lines and IDE objects, and the stored
/// order (each entry its item, index and line); each part after its count
/// (-1: null). `values` hold the keyframes' floats (f32: time, rotation, then translation and
/// scale as the contents say). The events go to the encoder as the decoder gave them: each
/// ANLF block its own file event; a placement file's records, section lines and text lines in
/// the stored order with their lines, then the records beyond it. The stored units are kept
/// where the format is the document's own, unless `normalise` (docs/FORMATS.md §9.7). Returns
/// 0; 1 after reporting an encoding error to `encode_error`; 2 when the format is not one the
/// library writes.
///
/// # Safety
/// Each pointer points to its length of readable values.
#[no_mangle]
pub unsafe extern "C" fn gts_write(
    records: *const f64,
    records_len: usize,
    bytes: *const u8,
    bytes_len: usize,
    values: *const f32,
    values_len: usize,
    format: *const u8,
    format_len: usize,
    quantize: u32,
    normalise: u32,
) -> u32 {
    use gtastream::encode::{EncodeOptions, Encoder};
    let slice = |ptr, len| {
        if len == 0 {
            &[][..]
        } else {
            core::slice::from_raw_parts(ptr, len)
        }
    };
    let mut r = Written {
        records: if records_len == 0 {
            &[]
        } else {
            core::slice::from_raw_parts(records, records_len)
        },
        bytes: slice(bytes, bytes_len),
        values: if values_len == 0 {
            &[]
        } else {
            core::slice::from_raw_parts(values, values_len)
        },
        at: 0,
        value_at: 0,
    };
    // The document's own format by default: its name leads the records.
    let own = Written { ..r }.bytes().unwrap_or_default();
    let name = if format_len == 0 {
        own
    } else {
        slice(format, format_len)
    };
    let Some(target) = Format::named(name).filter(|f| f.is_writable()) else {
        return 2;
    };
    let options = EncodeOptions::quantize(quantize != 0).with_normalise(normalise != 0);
    let written = Encoder::new(target, Vec::new(), options)
        .and_then(|mut encoder| write_document(&mut r, &mut encoder).map(|()| encoder.into_sink()));
    match written {
        Ok(out) => {
            crate::output(out.as_ptr(), out.len());
            0
        }
        Err(e) => crate::report_encode_error(e),
    }
}

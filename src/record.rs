//! Records: the flat events of the formats (a placed object, a car generator, a section
//! line, ...), each kind declared once.
//!
//! A record kind is one entry of [`for_each_record!`](crate::for_each_record): its struct, its
//! fields in document order with their docs, and whether it carries its bytes as stored.
//! Everything else follows from that entry: the struct and its [`Schema`] here, the
//! [`Record`] enum the decoders report through [`Visitor::record`](crate::Visitor::record),
//! and in the front ends the C struct, the JSON object, the JavaScript and the Python shapes,
//! which walk a record's fields through [`Record::value`] and fill one through
//! [`Record::set`] without naming a field. A new kind costs its entry, its decoder and its
//! encoder.
//!
//! ```
//! use gtastream::record::{Record, RecordKind, Value};
//! use gtastream::IplInstance;
//!
//! let mut instance = IplInstance::default();
//! instance.model_id = 1337;
//! let record = Record::Instance(instance);
//! let schema = record.kind().schema();
//! assert_eq!(schema.name, "instance");
//! let field = schema.field("model_id").expect("an instance has a model id");
//! assert_eq!(record.value(field), Value::I32(1337));
//!
//! // Filled back by field, as a document reader does.
//! let mut copy = Record::new(RecordKind::Instance);
//! for (i, _) in schema.fields.iter().enumerate() {
//!     copy.set(i, record.value(i)).expect("a field of its own type");
//! }
//! assert_eq!(copy, record);
//! ```

/// The type of a record's field, as the front ends lay it out (C: `int32_t`, `uint32_t`,
/// `uint64_t`, `float`, `float[n]`, pointer and length).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FieldType {
    /// A signed 32-bit integer.
    I32,
    /// An unsigned 32-bit integer.
    U32,
    /// An unsigned 64-bit integer (an absolute offset).
    U64,
    /// A 32-bit float.
    F32,
    /// `n` 32-bit floats: a vector, a quaternion, a matrix.
    Floats(usize),
    /// Bytes: a name or a line's text, one character per byte (Latin-1, docs/FORMATS.md §0).
    Text,
}

/// A field of a record kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// Its name: the key in the JSON document and the bindings, the member of the C struct.
    pub name: &'static str,
    /// Its type.
    pub ty: FieldType,
    /// Whether the field may be absent (`null`; C: a `has_` flag beside it).
    pub optional: bool,
    /// Whether the field is in the JSON document and the bindings' shapes; a field that is
    /// not (`#[document(skip)]` in the declaration: a line number for the encoder's messages)
    /// is only in the Rust struct and the C struct.
    pub in_document: bool,
    /// What it holds (the struct member's doc).
    pub doc: &'static str,
}

/// A record kind's declaration, as the front ends read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schema {
    /// The kind.
    pub kind: RecordKind,
    /// Its name: lower case with underscores (`instance`, `section_line`), the name of the
    /// event in the bindings and of the C struct (`gts_` + a prefix + the name).
    pub name: &'static str,
    /// The Rust struct's name (`IplInstance`).
    pub type_name: &'static str,
    /// What a record of the kind is.
    pub doc: &'static str,
    /// The fields in document order.
    pub fields: &'static [Field],
    /// Whether a record carries its bytes as stored ([`Record::raw`]), which an encoder
    /// writes back while they still read as the record's values (docs/FORMATS.md §9.7).
    pub stored: bool,
}

impl Schema {
    /// The index of the field called `name`.
    pub fn field(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|f| f.name == name)
    }
}

/// A field's value, borrowed from its record.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value<'r> {
    /// An optional field that is absent.
    Null,
    /// [`FieldType::I32`].
    I32(i32),
    /// [`FieldType::U32`].
    U32(u32),
    /// [`FieldType::U64`].
    U64(u64),
    /// [`FieldType::F32`].
    F32(f32),
    /// [`FieldType::Floats`]: as many as the type says.
    Floats(&'r [f32]),
    /// [`FieldType::Text`].
    Text(&'r [u8]),
}

/// Why [`Record::set`] refused a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldError {
    /// The kind has no field of that index.
    NoSuchField,
    /// The value is not of the field's type (a float for an integer, 3 floats for 4, `null`
    /// for a field that is not optional).
    WrongType,
}

/// A Rust type that a record's field can have: how it reads as a [`Value`] and back.
pub trait FieldValue<'a>: Sized {
    /// The field's type.
    const TYPE: FieldType;
    /// Whether it may be absent.
    const OPTIONAL: bool = false;
    /// The value.
    fn value(&self) -> Value<'_>;
    /// From a value; `None` when it is not of this type.
    fn from_value(value: Value<'a>) -> Option<Self>;
}

impl FieldValue<'_> for i32 {
    const TYPE: FieldType = FieldType::I32;
    fn value(&self) -> Value<'_> {
        Value::I32(*self)
    }
    fn from_value(value: Value<'_>) -> Option<Self> {
        match value {
            Value::I32(v) => Some(v),
            _ => None,
        }
    }
}

impl FieldValue<'_> for u32 {
    const TYPE: FieldType = FieldType::U32;
    fn value(&self) -> Value<'_> {
        Value::U32(*self)
    }
    fn from_value(value: Value<'_>) -> Option<Self> {
        match value {
            Value::U32(v) => Some(v),
            _ => None,
        }
    }
}

impl FieldValue<'_> for u64 {
    const TYPE: FieldType = FieldType::U64;
    fn value(&self) -> Value<'_> {
        Value::U64(*self)
    }
    fn from_value(value: Value<'_>) -> Option<Self> {
        match value {
            Value::U64(v) => Some(v),
            _ => None,
        }
    }
}

impl FieldValue<'_> for f32 {
    const TYPE: FieldType = FieldType::F32;
    fn value(&self) -> Value<'_> {
        Value::F32(*self)
    }
    fn from_value(value: Value<'_>) -> Option<Self> {
        match value {
            Value::F32(v) => Some(v),
            _ => None,
        }
    }
}

impl<const N: usize> FieldValue<'_> for [f32; N] {
    const TYPE: FieldType = FieldType::Floats(N);
    fn value(&self) -> Value<'_> {
        Value::Floats(self)
    }
    fn from_value(value: Value<'_>) -> Option<Self> {
        match value {
            Value::Floats(v) => v.try_into().ok(),
            _ => None,
        }
    }
}

impl<'a> FieldValue<'a> for &'a [u8] {
    const TYPE: FieldType = FieldType::Text;
    fn value(&self) -> Value<'_> {
        Value::Text(self)
    }
    fn from_value(value: Value<'a>) -> Option<Self> {
        match value {
            Value::Text(v) => Some(v),
            _ => None,
        }
    }
}

/// Text that is known to be ASCII (a section's name): set from bytes only when they are.
impl<'a> FieldValue<'a> for &'a str {
    const TYPE: FieldType = FieldType::Text;
    fn value(&self) -> Value<'_> {
        Value::Text(self.as_bytes())
    }
    fn from_value(value: Value<'a>) -> Option<Self> {
        match value {
            Value::Text(v) if v.is_ascii() => core::str::from_utf8(v).ok(),
            _ => None,
        }
    }
}

impl<'a, T: FieldValue<'a>> FieldValue<'a> for Option<T> {
    const TYPE: FieldType = T::TYPE;
    const OPTIONAL: bool = true;
    fn value(&self) -> Value<'_> {
        self.as_ref().map_or(Value::Null, T::value)
    }
    fn from_value(value: Value<'a>) -> Option<Self> {
        match value {
            Value::Null => Some(None),
            value => T::from_value(value).map(Some),
        }
    }
}

/// Calls `$macro!` with every record kind, in the order of [`RecordKind`]: the one list of
/// the kinds and their fields (the model: wasmparser's `for_each_operator!`). Each entry reads
///
/// ```text
/// /// doc
/// Variant Type<'a> "name" stored {
///     /// doc
///     field: type,
///     ...
/// }
/// ```
///
/// with `<'a>` where a field borrows from the input, `stored` where the record carries its
/// bytes as stored (a `raw: &'a [u8]` member, not a field of the document), and
/// `#[document(skip)]` after a field's doc where the JSON document and the bindings leave the
/// field out ([`Field::in_document`]). This crate
/// declares the structs from it; a front end may generate its own code from it too.
#[macro_export]
macro_rules! for_each_record {
    ($macro:ident) => {
        $macro! {
            /// A placed object: a binary IPL instance or a text IPL `inst` line. (`Default`
            /// gives zeros and no name or scale: other crates cannot name every field of a
            /// `#[non_exhaustive]` struct, so an encoder's caller starts from it.)
            Instance IplInstance<'a> "instance" stored {
                /// The object's model id.
                model_id: i32,
                /// Text IPL: the model name.
                model_name: Option<&'a [u8]>,
                /// Low 8 bits: the area code (13 = visible everywhere); bits 8..12: flags. 0
                /// where the line has no interior (GTA III).
                interior: u32,
                /// World position.
                position: [f32; 3],
                /// Quaternion `x, y, z, w` as stored.
                rotation: [f32; 4],
                /// Text IPL of GTA III and Vice City: the scale.
                scale: Option<[f32; 3]>,
                /// Index of the LOD instance in the companion text IPL; −1 = none (and where
                /// absent).
                lod: i32,
            }
            /// A car generator: a binary IPL car record or a text IPL `cars` line (`Default`:
            /// zeros).
            Car IplCar<'a> "car" stored {
                /// World position.
                position: [f32; 3],
                /// Heading in radians.
                angle: f32,
                /// Vehicle model id; −1 = random.
                model_id: i32,
                /// −1 = random.
                primary_color: i32,
                /// −1 = random.
                secondary_color: i32,
                /// Bit 0: force spawn; bit 1: ignore the population limit.
                flags: i32,
                /// Percent.
                alarm_chance: i32,
                /// Percent.
                door_lock_chance: i32,
                /// Minimum delay.
                min_delay: i32,
                /// Maximum delay.
                max_delay: i32,
            }
            /// A line of a text IPL section the decoder does not interpret (`cull`, `path`,
            /// `enex`, ...), passed through for tools.
            SectionLine SectionLine<'a> "section_line" stored {
                /// The section's name, lower case (`cull`, `grge`, ...; a section the games do
                /// not know: the bare word that opened it, `wanted`); `""` for a line outside
                /// any section.
                section: &'a str,
                /// The line without its line break and surrounding blanks.
                text: &'a [u8],
                /// The line's number in the file (from 1).
                #[document(skip)]
                line: u32,
            }
            /// An object definition: a line of an IDE section that defines a model (`objs`,
            /// `tobj`, `anim`, `weap`, `hier`, `cars`, `peds`), with the fields every front end
            /// needs by name; the others are in its text (docs/FORMATS.md §12).
            IdeObject IdeObject<'a> "ide_object" stored {
                /// The section's name (`objs`, `tobj`, `anim`, `weap`, `hier`, `cars`, `peds`).
                section: &'a str,
                /// The model id.
                id: i32,
                /// The model's name (its `.dff` without the extension).
                model_name: &'a [u8],
                /// The texture dictionary's name (its `.txd` without the extension).
                txd_name: &'a [u8],
                /// `objs`, `tobj`: the number of meshes of the layout that states it (every
                /// game); absent in San Andreas' short layout.
                mesh_count: Option<i32>,
                /// `objs`, `tobj`, `anim`, `weap`: the draw distance (the first, with several
                /// meshes).
                draw_distance: Option<f32>,
                /// `objs`, `tobj`, `anim`: the flags.
                flags: Option<u32>,
                /// `tobj`: the hour the object appears.
                time_on: Option<i32>,
                /// `tobj`: the hour it disappears.
                time_off: Option<i32>,
                /// `anim`: the animation block (`.ifp`) it uses; `weap`: its animation.
                animation: Option<&'a [u8]>,
                /// The line without its line break and surrounding blanks.
                text: &'a [u8],
                /// The line's number in the file (from 1).
                #[document(skip)]
                line: u32,
                /// The absolute offset of the line's first byte.
                #[document(skip)]
                offset: u64,
            }
            /// RenderWare: a section the reader does not interpret, skipped (its id, library
            /// version and size as stored).
            RwSection RwSection "rw_section" {
                /// Absolute offset of the section's 12-byte header.
                offset: u64,
                /// The section id (`0x0253F2FE`: node name, ...).
                id: u32,
                /// Bytes after the header, as stored.
                size: u32,
                /// The library id (version and build) as stored.
                version: u32,
                /// The id of the section it lies in (0 at the top level).
                parent: u32,
            }
            /// DFF: the clump's counts (its struct).
            DffClump DffClump "dff_clump" {
                /// Atomics.
                atomics: u32,
                /// Lights (RenderWare 3.3 and later).
                lights: Option<u32>,
                /// Cameras (RenderWare 3.3 and later).
                cameras: Option<u32>,
            }
            /// DFF: a frame of the clump's frame list (its matrix as stored; its name and bone
            /// id come in [`DffFrameName`] and [`DffHAnim`] records after the list).
            DffFrame DffFrame "dff_frame" {
                /// Its index in the frame list.
                index: u32,
                /// The rotation matrix: right, up and at vectors, 3 floats each.
                rotation: [f32; 9],
                /// The position relative to the parent.
                position: [f32; 3],
                /// The parent frame's index; −1 for a root.
                parent: i32,
                /// The matrix flags as stored.
                flags: u32,
            }
            /// DFF: a frame's name (the node name extension, `0x0253F2FE`).
            DffFrameName DffFrameName<'a> "dff_frame_name" {
                /// The frame's index.
                frame: u32,
                /// The name as stored (no NUL).
                name: &'a [u8],
            }
            /// DFF: a frame's HAnim extension (`0x011E`): its node id and, on the root of a
            /// hierarchy, the node table's header ([`DffHAnimNode`] records follow).
            DffHAnim DffHAnim "dff_hanim" {
                /// The frame's index.
                frame: u32,
                /// The extension's version (`0x100`).
                version: u32,
                /// The frame's node id (the bone id an animation's track names).
                node_id: i32,
                /// Nodes of the table this frame carries (0 on a frame that only has an id).
                node_count: u32,
                /// The hierarchy's flags (with a table).
                flags: Option<u32>,
                /// The key frame size (with a table).
                key_frame_size: Option<u32>,
            }
            /// DFF: a node of an HAnim hierarchy's table, in table order.
            DffHAnimNode DffHAnimNode "dff_hanim_node" {
                /// The frame that carries the table.
                frame: u32,
                /// The node's position in the table (the index the engine binds by).
                index: u32,
                /// The node id.
                node_id: i32,
                /// The node index as stored (the engine never reads it).
                node_index: i32,
                /// Bit 0: POP (the next node's parent is the one before this branch); bit 1:
                /// PUSH (this node's parent is kept for the next branch).
                flags: u32,
            }
            /// DFF: a geometry of the clump's geometry list: its counts, its arrays skipped.
            DffGeometry DffGeometry "dff_geometry" {
                /// Its index in the geometry list.
                index: u32,
                /// The format flags as stored.
                flags: u32,
                /// Triangles.
                triangles: u32,
                /// Vertices.
                vertices: u32,
                /// Morph targets.
                morph_targets: u32,
                /// Materials of its material list.
                materials: u32,
            }
            /// DFF: a geometry's skin (`0x0116`): the bones its vertices are weighted to
            /// ([`DffSkinBone`] records follow with the inverse bind matrices).
            DffSkin DffSkin "dff_skin" {
                /// The geometry's index.
                geometry: u32,
                /// Bones.
                bones: u32,
                /// Bones the vertices use.
                used_bones: u32,
                /// Weights per vertex at most (0 in the old layout: then computed).
                max_weights: u32,
                /// 0: the old layout (RenderWare 3.2 and before: a 4-byte marker before each
                /// matrix); 1: the later one.
                layout: u32,
            }
            /// DFF: a bone of a skin: its inverse bind matrix.
            DffSkinBone DffSkinBone "dff_skin_bone" {
                /// The geometry's index.
                geometry: u32,
                /// The bone's index (in the HAnim table's order).
                bone: u32,
                /// The matrix from the model to the bone, 4 columns of 4 floats as stored.
                inverse_bind: [f32; 16],
            }
            /// DFF: an atomic: a geometry hung on a frame.
            DffAtomic DffAtomic "dff_atomic" {
                /// Its index in the clump.
                index: u32,
                /// The frame's index.
                frame: u32,
                /// The geometry's index.
                geometry: u32,
                /// The flags as stored.
                flags: u32,
            }
        }
    };
}

/// Declares the record structs, [`RecordKind`] and [`Record`] from [`for_each_record!`].
macro_rules! declare_records {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident $type:ident $(<$lt:lifetime>)? $name:literal $($stored:ident)? {
            $(
                $(#[doc = $field_doc:literal])*
                $(#[document($skip:ident)])?
                $field:ident: $field_type:ty,
            )*
        }
    )*) => {
        $(
            $(#[doc = $doc])*
            #[derive(Clone, Copy, Debug, PartialEq, Default)]
            #[non_exhaustive]
            pub struct $type $(<$lt>)? {
                $(
                    $(#[doc = $field_doc])*
                    pub $field: $field_type,
                )*
                $(
                    /// The record as stored (a text line with its line break; empty from a
                    /// binary file, or where not kept): an encoder writes it back unchanged
                    /// while it reads as these values (docs/FORMATS.md §9.7).
                    pub raw: declare_records!(@raw $stored),
                )?
            }

            impl $(<$lt>)? $type $(<$lt>)? {
                /// The kind's declaration.
                pub const SCHEMA: Schema = Schema {
                    kind: RecordKind::$variant,
                    name: $name,
                    type_name: stringify!($type),
                    doc: concat!($($doc, "\n"),*),
                    fields: &[$(
                        Field {
                            name: stringify!($field),
                            ty: <$field_type as FieldValue>::TYPE,
                            optional: <$field_type as FieldValue>::OPTIONAL,
                            in_document: declare_records!(@in_document $($skip)?),
                            doc: concat!($($field_doc, "\n"),*),
                        },
                    )*],
                    stored: declare_records!(@is_stored $($stored)?),
                };
            }
        )*

        /// The record kinds, in the order of [`for_each_record!`](crate::for_each_record).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum RecordKind {
            $(
                #[doc = concat!("[`", stringify!($type), "`]")]
                $variant,
            )*
        }

        impl RecordKind {
            /// Every kind, in order.
            pub const ALL: &'static [RecordKind] = &[$(RecordKind::$variant),*];

            /// The kind's declaration.
            pub const fn schema(self) -> &'static Schema {
                match self {
                    $(RecordKind::$variant => &$type::SCHEMA,)*
                }
            }

            /// The kind of a [`Schema::name`].
            pub fn named(name: &str) -> Option<RecordKind> {
                RecordKind::ALL.iter().copied().find(|k| k.schema().name == name)
            }
        }

        /// A record of any kind, as [`Visitor::record`](crate::Visitor::record) reports it.
        #[derive(Clone, Copy, Debug, PartialEq)]
        #[non_exhaustive]
        pub enum Record<'a> {
            $(
                #[doc = concat!("[`", stringify!($type), "`]")]
                $variant($type $(<$lt>)?),
            )*
        }

        impl<'a> Record<'a> {
            /// A record of `kind` with every field zero, empty or absent.
            pub fn new(kind: RecordKind) -> Record<'a> {
                match kind {
                    $(RecordKind::$variant => Record::$variant(Default::default()),)*
                }
            }

            /// Its kind.
            pub const fn kind(&self) -> RecordKind {
                match self {
                    $(Record::$variant(_) => RecordKind::$variant,)*
                }
            }

            /// The value of field `field` (an index into its schema's fields); `Null` past
            /// them.
            pub fn value(&self, field: usize) -> Value<'_> {
                match self {
                    $(Record::$variant(record) => {
                        let mut i = 0;
                        $(
                            if i == field {
                                return FieldValue::value(&record.$field);
                            }
                            i += 1;
                        )*
                        let _ = (record, i);
                        Value::Null
                    })*
                }
            }

            /// Sets field `field` (an index into its schema's fields).
            pub fn set(&mut self, field: usize, value: Value<'a>) -> Result<(), FieldError> {
                match self {
                    $(Record::$variant(record) => {
                        let mut i = 0;
                        $(
                            if i == field {
                                record.$field =
                                    FieldValue::from_value(value).ok_or(FieldError::WrongType)?;
                                return Ok(());
                            }
                            i += 1;
                        )*
                        let _ = (record, i, value);
                        Err(FieldError::NoSuchField)
                    })*
                }
            }

            /// The record as stored (empty where the kind keeps none or none was kept).
            pub fn raw(&self) -> &'a [u8] {
                match self {
                    $(Record::$variant(_record) => {
                        declare_records!(@get_raw _record $($stored)?)
                    })*
                }
            }

            /// Sets the record as stored; no effect on a kind that keeps none.
            pub fn set_raw(&mut self, raw: &'a [u8]) {
                match self {
                    $(Record::$variant(_record) => {
                        declare_records!(@set_raw _record raw $($stored)?)
                    })*
                }
            }
        }
    };
    (@raw stored) => { &'a [u8] };
    (@in_document skip) => { false };
    (@in_document) => { true };
    (@is_stored stored) => { true };
    (@is_stored) => { false };
    (@get_raw $record:ident stored) => { $record.raw };
    (@get_raw $record:ident) => { &[] };
    (@set_raw $record:ident $raw:ident stored) => { $record.raw = $raw };
    (@set_raw $record:ident $raw:ident) => {{ let _ = $raw; }};
}

crate::for_each_record!(declare_records);

impl IplCar<'_> {
    /// The names of the eight integer fields in file order, as [`ints`](Self::ints) gives
    /// them (the keys of the JSON document's cars).
    pub const INT_FIELDS: [&'static str; 8] = [
        "model_id",
        "primary_color",
        "secondary_color",
        "flags",
        "alarm_chance",
        "door_lock_chance",
        "min_delay",
        "max_delay",
    ];

    /// The values alone, without the stored line (for a `Placement` (feature `alloc`), which
    /// keeps the line apart).
    pub fn values(&self) -> IplCar<'static> {
        IplCar { raw: &[], ..*self }
    }

    /// The eight integer fields in file order (after the position and the angle, in a record
    /// and on a line); named by [`INT_FIELDS`](Self::INT_FIELDS).
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

    /// Sets the eight integer fields from file order, as [`ints`](Self::ints) gives them.
    pub fn set_ints(&mut self, ints: [i32; 8]) {
        [
            self.model_id,
            self.primary_color,
            self.secondary_color,
            self.flags,
            self.alarm_chance,
            self.door_lock_chance,
            self.min_delay,
            self.max_delay,
        ] = ints;
    }
}

impl<'a> SectionLine<'a> {
    /// The fields of the line: separated by commas and blanks.
    pub fn fields(&self) -> impl Iterator<Item = &'a [u8]> + 'a {
        crate::format::fields::line_fields(self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind is found by its name, its fields by theirs, and every field reads back what
    /// was set, of every type.
    #[test]
    fn kinds_and_fields_are_named_once_and_round_trip() {
        let floats: [f32; 16] = core::array::from_fn(|i| i as f32 * 1.5 - 2.0);
        for (i, &kind) in RecordKind::ALL.iter().enumerate() {
            let schema = kind.schema();
            assert_eq!(schema.kind, kind);
            assert_eq!(RecordKind::named(schema.name), Some(kind));
            assert_eq!(RecordKind::ALL.iter().position(|&k| k == kind), Some(i));
            let mut record = Record::new(kind);
            assert_eq!(record.kind(), kind);
            for (f, field) in schema.fields.iter().enumerate() {
                assert_eq!(schema.field(field.name), Some(f), "{}", field.name);
                assert!(
                    !field.doc.is_empty(),
                    "{}.{} has a doc",
                    schema.name,
                    field.name
                );
                let value = match field.ty {
                    FieldType::I32 => Value::I32(-7 - f as i32),
                    FieldType::U32 => Value::U32(7 + f as u32),
                    FieldType::U64 => Value::U64(1 << 40 | f as u64),
                    FieldType::F32 => Value::F32(0.5 + f as f32),
                    FieldType::Floats(n) => Value::Floats(&floats[..n]),
                    FieldType::Text => Value::Text(b"name"),
                };
                record.set(f, value).expect("a value of the field's type");
                assert_eq!(record.value(f), value, "{}.{}", schema.name, field.name);
                let wrong = match field.ty {
                    FieldType::I32 => Value::U32(1),
                    _ => Value::I32(1),
                };
                assert_eq!(record.set(f, wrong), Err(FieldError::WrongType));
                let null = record.set(f, Value::Null);
                assert_eq!(
                    null.is_ok(),
                    field.optional,
                    "{}.{}",
                    schema.name,
                    field.name
                );
            }
            let past = schema.fields.len();
            assert_eq!(record.value(past), Value::Null);
            assert_eq!(
                record.set(past, Value::I32(0)),
                Err(FieldError::NoSuchField)
            );
            record.set_raw(b"line\n");
            let kept: &[u8] = if schema.stored { b"line\n" } else { b"" };
            assert_eq!(record.raw(), kept);
        }
    }

    /// A text field of `&str` takes ASCII only (a section's name is known to be).
    #[test]
    fn str_fields_take_ascii_text() {
        let mut line = Record::new(RecordKind::SectionLine);
        let section = SectionLine::SCHEMA.field("section").expect("declared");
        assert_eq!(line.set(section, Value::Text(b"cull")), Ok(()));
        assert_eq!(
            line.set(section, Value::Text(b"\xe9t\xe9")),
            Err(FieldError::WrongType)
        );
    }
}

//! Whole-file convenience for placement files (feature `alloc`): a decoded IPL as owned values.

use alloc::string::String;
use alloc::vec::Vec;

use crate::package::{decode_whole, latin1};
use crate::{Error, ErrorKind, FileInfo, Flow, Format, IplCar, Record, Visitor, Warning};

/// A decoded item placement file, binary or text.
#[derive(Clone, Debug, PartialEq)]
pub struct Placement {
    /// [`Format::IplBinary`] or [`Format::IplText`].
    pub format: Format,
    /// The placed objects, in file order.
    pub instances: Vec<Instance>,
    /// The car generators, in file order.
    pub cars: Vec<IplCar<'static>>,
    /// Text IPL: the lines of the other sections, in file order.
    pub section_lines: Vec<RawLine>,
    /// Everything odd the decoder noticed, in file order.
    pub warnings: Vec<Warning>,
    /// The file as stored, in file order: each record and section line (by its index in the
    /// lists above) with its line as stored, and the text lines that are neither (blank lines,
    /// comments, section names, `end`), for writing the file back byte for byte
    /// ([`encode::placement`](crate::encode::placement), docs/FORMATS.md §9.7). Empty where
    /// nothing is kept ([`normalise`](Self::normalise)).
    pub stored: Vec<Stored>,
    /// Binary IPL: the header as stored (76 bytes).
    pub header: Vec<u8>,
    /// The bytes after the content (a text's NUL padding, a sector's zeros).
    pub trailing: Vec<u8>,
}

/// One line or record of a placement file as stored (see [`Placement::stored`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stored {
    /// What it is.
    pub item: Item,
    /// Text IPL: the line as stored, with its line break (empty for a binary record).
    pub raw: Vec<u8>,
}

/// What a [`Stored`] line is: a record or section line, by its index in its list, or a text
/// line with no event of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    /// `Placement::instances[i]`.
    Instance(usize),
    /// `Placement::cars[i]`.
    Car(usize),
    /// `Placement::section_lines[i]`.
    SectionLine(usize),
    /// A blank line, a comment, a section name, `end`, a line read before the text was known
    /// to be a placement file.
    Text,
}

/// A placed object, owned.
#[derive(Clone, Debug, PartialEq)]
pub struct Instance {
    /// World position.
    pub position: [f32; 3],
    /// Quaternion `x, y, z, w` as stored.
    pub rotation: [f32; 4],
    /// The object's model id.
    pub model_id: i32,
    /// Area code and flags (0 where the layout has none).
    pub interior: u32,
    /// LOD instance index; −1 = none.
    pub lod: i32,
    /// Text IPL: the model name (one character per byte).
    pub model_name: Option<String>,
    /// Text IPL of GTA III and Vice City: the scale.
    pub scale: Option<[f32; 3]>,
}

/// A line of a text IPL section without an event of its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawLine {
    /// The section's name, lower case (a section the games do not know: its bare word);
    /// empty for a line outside any section.
    pub section: String,
    /// The line, trimmed (one character per byte).
    pub text: String,
}

impl Placement {
    /// Forgets the stored bytes: [`encode::placement`](crate::encode::placement) then writes a
    /// clean file (the records in order, instances first; the lines of the other sections).
    pub fn normalise(&mut self) {
        self.stored.clear();
        self.header.clear();
        self.trailing.clear();
    }

    /// Decodes a whole placement file held in memory (an animation file is
    /// [`ErrorKind::BadMagic`] here: see `Package`).
    pub fn parse(data: &[u8]) -> Result<Placement, Error> {
        let mut builder = PlacementBuilder::new();
        decode_whole(data, &mut builder, |b| b.placement.is_some())?;
        builder.finish().ok_or(Error {
            kind: ErrorKind::Truncated,
            offset: 0,
        })
    }
}

/// Collects the events of one placement file into a [`Placement`]: the visitor behind
/// [`Placement::parse`], for callers that drive a decoder themselves. It aborts at the `file`
/// event of an animation file.
#[derive(Debug, Default)]
pub struct PlacementBuilder {
    placement: Option<Placement>,
    /// Warnings, including the binary header's, reported before the `file` event.
    warnings: Vec<Warning>,
    /// Text lines reported before the `file` event.
    early: Vec<Stored>,
}

impl PlacementBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// The placement, with every warning; `None` if no `file` event came.
    pub fn finish(self) -> Option<Placement> {
        let mut placement = self.placement?;
        placement.warnings = self.warnings;
        Some(placement)
    }
}

impl Visitor for PlacementBuilder {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        if !info.format.is_placement() {
            return Flow::Abort;
        }
        self.placement = Some(Placement {
            format: info.format,
            instances: Vec::new(),
            cars: Vec::new(),
            section_lines: Vec::new(),
            warnings: Vec::new(),
            stored: self.early.drain(..).collect(),
            header: info.raw.to_vec(),
            trailing: Vec::new(),
        });
        Flow::Continue
    }

    fn record(&mut self, record: &Record<'_>) -> Flow {
        match record {
            Record::Instance(i) => {
                if let Some(placement) = &mut self.placement {
                    placement.stored.push(Stored {
                        item: Item::Instance(placement.instances.len()),
                        raw: i.raw.to_vec(),
                    });
                    placement.instances.push(Instance {
                        position: i.position,
                        rotation: i.rotation,
                        model_id: i.model_id,
                        interior: i.interior,
                        lod: i.lod,
                        model_name: i.model_name.map(latin1),
                        scale: i.scale,
                    });
                }
                Flow::Continue
            }
            Record::Car(car) => {
                if let Some(placement) = &mut self.placement {
                    placement.stored.push(Stored {
                        item: Item::Car(placement.cars.len()),
                        raw: car.raw.to_vec(),
                    });
                    placement.cars.push(car.values());
                }
                Flow::Continue
            }
            Record::SectionLine(line) => {
                if let Some(placement) = &mut self.placement {
                    placement.stored.push(Stored {
                        item: Item::SectionLine(placement.section_lines.len()),
                        raw: line.raw.to_vec(),
                    });
                    placement.section_lines.push(RawLine {
                        section: line.section.into(),
                        text: latin1(line.text),
                    });
                }
                Flow::Continue
            }
            // The other kinds are not placements.
            _ => Flow::Continue,
        }
    }

    fn warning(&mut self, warning: Warning) -> Flow {
        self.warnings.push(warning);
        Flow::Continue
    }

    fn text_line(&mut self, raw: &[u8]) -> Flow {
        let line = Stored {
            item: Item::Text,
            raw: raw.to_vec(),
        };
        match &mut self.placement {
            Some(placement) => placement.stored.push(line),
            None => self.early.push(line),
        }
        Flow::Continue
    }

    fn trailing(&mut self, bytes: &[u8]) -> Flow {
        if let Some(placement) = &mut self.placement {
            placement.trailing.extend_from_slice(bytes);
        }
        Flow::Continue
    }
}

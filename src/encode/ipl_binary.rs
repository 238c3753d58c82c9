//! Binary IPL `bnry` (docs/FORMATS.md §4.1 to §4.3, §9.3): the 76-byte header is written
//! zeroed (or as stored, §9.7) and patched at the end with the counts, offsets and sizes of the
//! two sections. Each section is one run of records, in the order the events bring them.

use super::{bump, stored_u32, Dropped, EncodeError, Lost, Out, Sink};
use crate::{IplCar, IplInstance};

const HEADER: usize = 76;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Open {
    None,
    Instances,
    Cars,
}

#[derive(Clone, Copy, Debug, Default)]
struct Section {
    count: u32,
    /// 32 bits, as the header's field (the encoder's size matters to hosts).
    offset: u32,
}

#[derive(Debug)]
pub(crate) struct Bnry {
    started: bool,
    open: Open,
    instances: Section,
    cars: Section,
    /// Lines of text-only sections dropped on request.
    pub(crate) dropped: Dropped,
    /// The stored header's instance and car fields: count, offset and size of each.
    stored: Option<[u32; 6]>,
}

/// The header fields of the two sections: instance count, offset, size; car count, offset,
/// size.
const FIELDS: [u64; 6] = [0x04, 0x1C, 0x20, 0x14, 0x3C, 0x40];

impl Bnry {
    pub(crate) fn new() -> Self {
        Bnry {
            started: false,
            open: Open::None,
            instances: Section::default(),
            cars: Section::default(),
            dropped: Dropped::default(),
            stored: None,
        }
    }

    pub(crate) fn file<S: Sink>(
        &mut self,
        out: &mut Out<S>,
        raw: &[u8],
    ) -> Result<(), EncodeError> {
        if self.started {
            return Err(EncodeError::OutOfOrder);
        }
        out.put(b"bnry")?;
        // The unknown fields as stored; the sections' fields are patched at the end.
        match raw.get(4..HEADER).filter(|_| raw.len() == HEADER) {
            Some(rest) => {
                out.put(rest)?;
                self.stored = Some(FIELDS.map(|at| stored_u32(raw, at as usize)));
            }
            None => out.zeros(HEADER - 4)?,
        }
        self.started = true;
        Ok(())
    }

    /// Opens the section `want` for one more record: a section cannot be resumed once the
    /// other has begun.
    fn record<S: Sink>(&mut self, out: &mut Out<S>, want: Open) -> Result<(), EncodeError> {
        if !self.started {
            return Err(EncodeError::OutOfOrder);
        }
        if self.open != want {
            let section = match want {
                Open::Instances => &mut self.instances,
                _ => &mut self.cars,
            };
            if section.count > 0 {
                return Err(EncodeError::OutOfOrder);
            }
            section.offset = u32::try_from(out.pos).map_err(|_| EncodeError::TooMany)?;
            self.open = want;
        }
        match want {
            Open::Instances => bump(&mut self.instances.count),
            _ => bump(&mut self.cars.count),
        }
    }

    pub(crate) fn instance<S: Sink>(
        &mut self,
        out: &mut Out<S>,
        instance: &IplInstance<'_>,
    ) -> Result<(), EncodeError> {
        // The model name is not stored: the game finds the model by its id.
        if instance.scale.is_some_and(|s| s != [1.0; 3]) {
            return Err(EncodeError::NotRepresentable(Lost::Scale));
        }
        self.record(out, Open::Instances)?;
        let mut record = [0u8; 40];
        let [x, y, z] = instance.position;
        let [rx, ry, rz, rw] = instance.rotation;
        for (bytes, value) in record.chunks_exact_mut(4).zip([x, y, z, rx, ry, rz, rw]) {
            bytes.copy_from_slice(&value.to_le_bytes());
        }
        record[28..32].copy_from_slice(&instance.model_id.to_le_bytes());
        record[32..36].copy_from_slice(&instance.interior.to_le_bytes());
        record[36..40].copy_from_slice(&instance.lod.to_le_bytes());
        out.put(&record)
    }

    pub(crate) fn car<S: Sink>(
        &mut self,
        out: &mut Out<S>,
        car: &IplCar<'_>,
    ) -> Result<(), EncodeError> {
        self.record(out, Open::Cars)?;
        let mut record = [0u8; 48];
        let [x, y, z] = car.position;
        for (bytes, value) in record.chunks_exact_mut(4).zip([x, y, z, car.angle]) {
            bytes.copy_from_slice(&value.to_le_bytes());
        }
        for (bytes, value) in record[16..].chunks_exact_mut(4).zip(car.ints()) {
            bytes.copy_from_slice(&value.to_le_bytes());
        }
        out.put(&record)
    }

    pub(crate) fn end<S: Sink>(&mut self, out: &mut Out<S>) -> Result<(), EncodeError> {
        if !self.started {
            return Err(EncodeError::OutOfOrder);
        }
        let offset = |s: &Section| -> Result<u32, EncodeError> {
            if s.count == 0 {
                return Ok(0);
            }
            Ok(s.offset)
        };
        let size = |s: &Section, record: u32| -> Result<u32, EncodeError> {
            s.count.checked_mul(record).ok_or(EncodeError::TooMany)
        };
        // The whole file must stay addressable with 32-bit offsets.
        u32::try_from(out.pos).map_err(|_| EncodeError::TooMany)?;
        let mut fields = [
            self.instances.count,
            offset(&self.instances)?,
            size(&self.instances, 40)?,
            self.cars.count,
            offset(&self.cars)?,
            size(&self.cars, 48)?,
        ];
        if let Some(stored) = self.stored {
            for s in [0, 3] {
                // A section of as many records as stored keeps a stale size, and an empty
                // one its offset too. One elsewhere than written (a gap or other bytes before
                // it, an overlap) would be a different file: refused, not moved silently.
                if fields[s] == stored[s] {
                    fields[s + 2] = stored[s + 2];
                    if fields[s] == 0 {
                        fields[s + 1] = stored[s + 1];
                    } else if fields[s + 1] != stored[s + 1] {
                        return Err(EncodeError::NotRepresentable(Lost::SectionOffset));
                    }
                }
            }
        }
        for (at, value) in FIELDS.into_iter().zip(fields) {
            out.patch_u32(at, value)?;
        }
        Ok(())
    }
}

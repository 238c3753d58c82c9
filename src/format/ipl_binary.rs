//! San Andreas binary item placement files, `bnry` (docs/FORMATS.md §4).
//!
//! A 76-byte header, then instances (40 bytes) and car generators (48 bytes) at the offsets it
//! gives. The sections are read in file order (vanilla files: instances, then cars right
//! after), gaps skipped; only a section that lies behind the previous one needs a seek.

use nom::number::complete::le_u32;
use nom::{IResult, Parser};

use super::fields::{check_fits, f32_at, parse, record, u32_at, Check, Checks};
use super::protocol::{run_units, Ran, Step, Stepped, Want};
use crate::{
    Error, FileInfo, Flow, Format, IplCar, IplInstance, Record, Unit, UnitKind, Visitor,
    WarningKind,
};

const HEADER: usize = 76;
const INSTANCE: usize = 40;
const CAR: usize = 48;
/// Where the header keeps the counts of the four unknown sections.
const UNKNOWN_COUNTS_AT: [u64; 4] = [0x08, 0x0C, 0x10, 0x18];
/// Where it keeps the instance and car section sizes (the game ignores them).
const INSTANCE_SIZE_AT: u64 = 0x20;
const CAR_SIZE_AT: u64 = 0x40;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Header,
    /// On the way to the next section.
    Goto,
    Instances,
    Cars,
    End,
    /// Past the sections, up to where the last one ends.
    SkipToEnd,
    Done,
}

/// One section to read: where, how many records, which kind.
#[derive(Clone, Copy, Debug)]
struct Section {
    at: u32,
    count: u32,
    stage: Stage,
}

impl Section {
    const NONE: Section = Section {
        at: 0,
        count: 0,
        stage: Stage::End,
    };

    /// Where the section's records end (nowhere for an empty one: its offset is not data).
    #[inline]
    fn end(&self) -> u64 {
        let size = if self.stage == Stage::Cars {
            CAR
        } else {
            INSTANCE
        };
        match self.count {
            0 => 0,
            n => u64::from(self.at) + u64::from(n) * size as u64,
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) struct IplBinary {
    stage: Stage,
    checks: Checks,
    /// The sections with records, in file order; `next` indexes the one being read.
    sections: [Section; 2],
    next: u8,
    left: u32,
    end: u64,
}

struct Header {
    /// Instances, unknown 1–3, cars, unknown 4.
    counts: [u32; 6],
    /// (offset, size) of instances, unknown 1–3, cars, unknown 4.
    sections: [(u32, u32); 6],
}

#[inline]
fn header(i: &[u8]) -> IResult<&[u8], Header> {
    let (i, _magic) = le_u32(i)?;
    let mut counts = [0; 6];
    let mut i = i;
    for count in &mut counts {
        (i, *count) = le_u32(i)?;
    }
    let mut sections = [(0, 0); 6];
    for section in &mut sections {
        (i, *section) = (le_u32, le_u32).parse(i)?;
    }
    Ok((i, Header { counts, sections }))
}

/// An instance record, read at its fixed offsets.
#[inline]
fn instance(r: &[u8; INSTANCE]) -> IplInstance<'static> {
    let f = |i| f32_at(r, i);
    IplInstance {
        position: [f(0), f(1), f(2)],
        rotation: [f(3), f(4), f(5), f(6)],
        model_id: u32_at(r, 7) as i32,
        interior: u32_at(r, 8),
        lod: u32_at(r, 9) as i32,
        model_name: None,
        scale: None,
        raw: &[],
    }
}

/// A car generator record, read at its fixed offsets.
#[inline]
fn car(r: &[u8; CAR]) -> IplCar<'static> {
    let mut car = IplCar {
        position: [f32_at(r, 0), f32_at(r, 1), f32_at(r, 2)],
        angle: f32_at(r, 3),
        ..IplCar::default()
    };
    car.set_ints(core::array::from_fn(|i| u32_at(r, 4 + i) as i32));
    car
}

impl IplBinary {
    pub(crate) fn new() -> Self {
        IplBinary {
            stage: Stage::Header,
            checks: Checks::new(),
            sections: [Section::NONE; 2],
            next: 0,
            left: 0,
            end: 0,
        }
    }

    #[inline]
    fn section(&self) -> Section {
        self.sections
            .get(usize::from(self.next))
            .copied()
            .unwrap_or(Section::NONE)
    }

    fn header<V: Visitor>(
        &mut self,
        unit: &[u8],
        at: u64,
        visitor: &mut V,
    ) -> Result<Stepped, Error> {
        let header = parse(header, unit, at)?;
        let [instances, unknown1, unknown2, unknown3, cars, unknown4] = header.counts;
        let (instance_at, instance_size) = header.sections[0];
        let (car_at, car_size) = header.sections[4];
        // Offsets count only where their count is non-zero: writers leave garbage otherwise.
        let instance_section = Section {
            at: instance_at,
            count: instances,
            stage: Stage::Instances,
        };
        let car_section = Section {
            at: car_at,
            count: cars,
            stage: Stage::Cars,
        };
        check_fits(u64::from(instance_at), instances, INSTANCE as u64, 0x04)?;
        check_fits(u64::from(car_at), cars, CAR as u64, 0x14)?;
        let size_wrong = |size: u32, count: u32, record: usize| {
            size != 0 && u64::from(size) != u64::from(count) * record as u64
        };
        let unknown = [unknown1, unknown2, unknown3, unknown4];
        let checks: [Check; 6] = [
            (
                unknown[0] != 0,
                WarningKind::UnknownSection,
                UNKNOWN_COUNTS_AT[0],
            ),
            (
                unknown[1] != 0,
                WarningKind::UnknownSection,
                UNKNOWN_COUNTS_AT[1],
            ),
            (
                unknown[2] != 0,
                WarningKind::UnknownSection,
                UNKNOWN_COUNTS_AT[2],
            ),
            (
                unknown[3] != 0,
                WarningKind::UnknownSection,
                UNKNOWN_COUNTS_AT[3],
            ),
            (
                size_wrong(instance_size, instances, INSTANCE),
                WarningKind::SizeMismatch,
                INSTANCE_SIZE_AT,
            ),
            (
                size_wrong(car_size, cars, CAR),
                WarningKind::SizeMismatch,
                CAR_SIZE_AT,
            ),
        ];
        if let Some(warning) = self.checks.report(&checks, visitor) {
            return Ok(warning);
        }
        let mut sections = [instance_section, car_section];
        if car_section.count > 0 && (instances == 0 || car_at < instance_at) {
            sections.swap(0, 1);
        }
        self.sections = sections;
        self.next = 0;
        self.stage = self.next_section();
        let flow = visitor.file(&FileInfo {
            container_size: None,
            rw_version: None,
            format: Format::IplBinary,
            name: None,
            animation_count: 0,
            instance_count: Some(instances),
            car_count: Some(cars),
            info_size: None,
            raw: unit,
        });
        Ok(Stepped::new(unit.len(), flow))
    }

    /// Reports the instance `r` at `at`: the one place a record's events are made, for the
    /// step and for the loop over whole records alike.
    #[inline(always)]
    fn instance<V: Visitor>(&mut self, r: &[u8; INSTANCE], at: u64, visitor: &mut V) -> Flow {
        let instance = instance(r);
        self.record_done();
        visitor.unit(&Unit::at(UnitKind::Record, at));
        visitor.record(&Record::Instance(instance))
    }

    /// As [`instance`](Self::instance), for a car generator.
    #[inline(always)]
    fn car<V: Visitor>(&mut self, r: &[u8; CAR], at: u64, visitor: &mut V) -> Flow {
        let car = car(r);
        self.record_done();
        visitor.unit(&Unit::at(UnitKind::Record, at));
        visitor.record(&Record::Car(car))
    }

    #[inline]
    fn record_done(&mut self) {
        self.left -= 1;
        if self.left == 0 {
            self.next += 1;
            self.stage = self.next_section();
        }
    }

    #[inline]
    fn next_section(&self) -> Stage {
        if self.section().count > 0 {
            Stage::Goto
        } else {
            Stage::End
        }
    }
}

impl Step for IplBinary {
    #[inline]
    fn want(&self) -> Want {
        match self.stage {
            Stage::Header => Want::Unit(HEADER),
            Stage::Goto => Want::Goto(u64::from(self.section().at)),
            Stage::Instances => Want::Unit(INSTANCE),
            Stage::Cars => Want::Unit(CAR),
            Stage::End => Want::Unit(0),
            Stage::SkipToEnd => Want::ReadTo(self.end),
            Stage::Done => Want::Done,
        }
    }

    /// The records that lie whole in `input` in one loop, without the framing's round of
    /// `want` and `step` for each (binary IPL has one event per record: that round was most
    /// of a record's cost); the header and the end go the common way. Out of line: inlined
    /// into the framing, which holds every machine's loop, it cost ANP3 in 64-byte pieces
    /// 0.9 % more instructions (out of line, 0.5 %).
    #[inline(never)]
    fn run_whole<V: Visitor>(&mut self, input: &[u8], at: u64, visitor: &mut V) -> Ran {
        let mut rest = input;
        loop {
            let unit_at = at + (input.len() - rest.len()) as u64;
            let flow = match self.stage {
                Stage::Instances => match rest.split_first_chunk::<INSTANCE>() {
                    Some((r, tail)) => {
                        rest = tail;
                        self.instance(r, unit_at, visitor)
                    }
                    None => break,
                },
                Stage::Cars => match rest.split_first_chunk::<CAR>() {
                    Some((r, tail)) => {
                        rest = tail;
                        self.car(r, unit_at, visitor)
                    }
                    None => break,
                },
                _ => {
                    let ran = run_units(self, rest, unit_at, visitor);
                    return Ran {
                        consumed: input.len() - rest.len() + ran.consumed,
                        ..ran
                    };
                }
            };
            if flow != Flow::Continue {
                return Ran {
                    consumed: input.len() - rest.len(),
                    flow,
                    at: unit_at,
                    error: None,
                };
            }
        }
        Ran {
            consumed: input.len() - rest.len(),
            flow: Flow::Continue,
            at,
            error: None,
        }
    }

    fn step<V: Visitor>(
        &mut self,
        unit: &[u8],
        at: u64,
        visitor: &mut V,
    ) -> Result<Stepped, Error> {
        let flow = match self.stage {
            Stage::Header => return self.header(unit, at, visitor),
            Stage::Goto => {
                let section = self.section();
                self.left = section.count;
                self.stage = section.stage;
                Flow::Continue
            }
            Stage::Instances => self.instance(record(unit, at)?, at, visitor),
            Stage::Cars => self.car(record(unit, at)?, at, visitor),
            Stage::End => {
                // Reading ends after the section that ends last; what follows is padding.
                self.end = self.sections.iter().map(Section::end).max().unwrap_or(0);
                self.stage = if self.end > at {
                    Stage::SkipToEnd
                } else {
                    Stage::Done
                };
                Flow::Continue
            }
            Stage::SkipToEnd => {
                self.stage = Stage::Done;
                Flow::Continue
            }
            Stage::Done => Flow::Continue,
        };
        Ok(Stepped::new(unit.len(), flow))
    }
}

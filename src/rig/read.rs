//! A model's skeleton read from a DFF in memory in one call, the games a model is for, and
//! the game whose binding applies when the caller names none.

use core::fmt;

use crate::check::Games;
use crate::record::Record;
use crate::{Decoder, Error, FileInfo, Flow, Format, Visitor};

use super::bind::Host;
use super::model::{Skeleton, SkeletonBuilder, SkeletonError};

/// Why [`read_skeleton`] gave no skeleton.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// The bytes do not decode (the error says what and where).
    Decode(Error),
    /// The bytes are a file of another format.
    NotModel(Format),
    /// The model has more frames, nodes or bones than a [`Skeleton`] holds.
    Limit(SkeletonError),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Decode(e) => write!(f, "{e}"),
            ReadError::NotModel(format) => {
                write!(f, "not a model (DFF) but {}", format.name())
            }
            ReadError::Limit(e) => write!(f, "{e}"),
        }
    }
}

/// The builder, and the format the decoder found.
struct Reading {
    builder: SkeletonBuilder,
    format: Option<Format>,
}

impl Visitor for Reading {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        self.format = Some(info.format);
        if info.format != Format::Dff {
            return Flow::Abort;
        }
        self.builder.file(info)
    }

    fn record(&mut self, record: &Record<'_>) -> Flow {
        self.builder.take(record);
        Flow::Continue
    }
}

/// The skeleton of the DFF held in `data` (decoded, then built by [`SkeletonBuilder`]).
/// Allocation-free; a [`Skeleton`] holds [`MAX_FRAMES`](super::MAX_FRAMES) frames and
/// matrices inline (tens of KB), so callers with little stack keep it in static or
/// caller-provided storage.
pub fn read_skeleton(data: &[u8]) -> Result<Skeleton, ReadError> {
    let mut reading = Reading {
        builder: SkeletonBuilder::new(),
        format: None,
    };
    let result = Decoder::new().decode_slice(data, &mut reading);
    match reading.format {
        Some(Format::Dff) => {}
        Some(other) => return Err(ReadError::NotModel(other)),
        None => {}
    }
    result.map_err(ReadError::Decode)?;
    reading.builder.build().map_err(ReadError::Limit)
}

/// The games a model is for, by its RenderWare version (`rw_version`: the library id as
/// stored): 3.6 San Andreas (and MTA), 3.3 to 3.5 Vice City, older GTA III. Every game when
/// the version is not known.
pub fn model_games(rw_version: Option<u32>) -> Games {
    match rw_version.map(|id| crate::rw_version(id).0) {
        Some(v) if v >= 0x3_6000 => Games::SA.union(Games::MTA),
        Some(v) if v >= 0x3_3000 => Games::VC,
        Some(_) => Games::III,
        None => Games::ALL,
    }
}

/// The game whose binding applies when the caller names none: San Andreas for its own
/// formats (ANP3, ANP2); for an ANPK, the game the model is for ([`model_games`]: III, VC,
/// else SA).
pub fn default_host(animation_format: Format, skeleton: &Skeleton) -> Host {
    if animation_format != Format::Anpk {
        return Host::SanAndreas;
    }
    let games = model_games(skeleton.rw_version());
    if games == Games::III {
        Host::Iii
    } else if games == Games::VC {
        Host::ViceCity
    } else {
        Host::SanAndreas
    }
}

//! Decoding from `std::io` readers (feature `std`).

use std::io::{self, Read, Seek, SeekFrom};

use crate::{Decoder, Error, ErrorKind, Status, Visitor};

/// Bytes read per call.
const READ_SIZE: usize = 16 * 1024;

/// Why decoding from a reader failed.
#[derive(Debug)]
pub enum ReadError {
    /// The reader failed.
    Io(io::Error),
    /// The bytes did not decode.
    Decode(Error),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Io(error) => write!(f, "read error: {error}"),
            ReadError::Decode(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::Io(error) => Some(error),
            ReadError::Decode(error) => Some(error),
        }
    }
}

impl From<io::Error> for ReadError {
    fn from(error: io::Error) -> Self {
        ReadError::Io(error)
    }
}

impl From<Error> for ReadError {
    fn from(error: Error) -> Self {
        ReadError::Decode(error)
    }
}

/// Decodes the file that starts at the reader's current position (a file inside an archive
/// works: offsets are taken from there), seeking where the format needs it, to the end.
pub fn decode_reader<R: Read + Seek, V: Visitor>(
    decoder: &mut Decoder,
    reader: &mut R,
    visitor: &mut V,
) -> Result<(), ReadError> {
    let base = reader.stream_position()?;
    drive(decoder, reader, visitor, |reader, offset| {
        reader.seek(SeekFrom::Start(base + offset))?;
        Ok(())
    })
}

/// Decodes from a reader that cannot seek: the decoder reads through gaps instead of seeking
/// ahead, and a file that needs a seek back fails with [`ErrorKind::SeekRequired`] naming the
/// offset, whatever the decoder's options.
pub fn decode_stream<R: Read, V: Visitor>(
    decoder: &mut Decoder,
    reader: &mut R,
    visitor: &mut V,
) -> Result<(), ReadError> {
    decoder.stop_seeking();
    drive(decoder, reader, visitor, |_, offset| {
        Err(ReadError::Decode(Error {
            kind: ErrorKind::SeekRequired,
            offset,
        }))
    })
}

fn drive<R: Read, V: Visitor>(
    decoder: &mut Decoder,
    reader: &mut R,
    visitor: &mut V,
    mut seek: impl FnMut(&mut R, u64) -> Result<(), ReadError>,
) -> Result<(), ReadError> {
    let mut buffer = [0u8; READ_SIZE];
    loop {
        let len = match reader.read(&mut buffer) {
            Ok(0) => return Ok(decoder.finish(visitor)?),
            Ok(len) => len,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error.into()),
        };
        let mut chunk = &buffer[..len];
        loop {
            let progress = decoder.feed(chunk, visitor)?;
            chunk = &chunk[progress.consumed..];
            match progress.status {
                // A pause means nothing to a caller that decodes in one call: go on.
                Status::Paused => continue,
                Status::Seek(offset) => seek(reader, offset)?,
                Status::NeedInput | Status::Done => {}
            }
            break;
        }
    }
}

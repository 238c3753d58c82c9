//! Decoding from `std::io` readers (feature `std`).

use std::io::{self, Read, Seek, SeekFrom};

use crate::archive::{ArchiveDecoder, ArchiveVisitor, Input};
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
///
/// A reader that turns out not to seek (a `File` that is a pipe: asking its position fails)
/// is read front to back, as by [`decode_stream`].
pub fn decode_reader<R: Read + Seek, V: Visitor>(
    decoder: &mut Decoder,
    reader: &mut R,
    visitor: &mut V,
) -> Result<(), ReadError> {
    let Ok(base) = reader.stream_position() else {
        return decode_stream(decoder, reader, visitor);
    };
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

/// The length of a seekable file (the archive decoders need it up front); the reader is left
/// at its start.
pub fn stream_len<R: Seek>(reader: &mut R) -> io::Result<u64> {
    let len = reader.seek(SeekFrom::End(0))?;
    reader.seek(SeekFrom::Start(0))?;
    Ok(len)
}

/// Decodes a whole IMG archive from seekable readers, to the end: `data` is the `.img`, `dir`
/// the `.dir` of a version 1 archive (`None` for version 2). Offsets count from the readers'
/// starts. Make the decoder with the files' lengths ([`stream_len`]).
pub fn decode_archive<D: Read + Seek, R: Read + Seek, V: ArchiveVisitor>(
    archive: &mut ArchiveDecoder,
    mut dir: Option<&mut D>,
    data: &mut R,
    visitor: &mut V,
) -> Result<(), ReadError> {
    let mut buffer = [0u8; READ_SIZE];
    // Where each reader stands, so that a seek to where it already is costs nothing.
    let mut at = [None::<u64>; 2];
    loop {
        let input = archive.input();
        let position = archive.position();
        let slot = usize::from(input == Input::Data);
        // Small reads for the directory and an entry's first bytes, the rest of the entry
        // for its data: never the bytes of other entries.
        let want = archive.wanted().map_or(READ_SIZE, |n| {
            usize::try_from(n).unwrap_or(READ_SIZE).min(READ_SIZE)
        });
        let mut read = |reader: &mut dyn ReadSeek, at: &mut Option<u64>| -> io::Result<usize> {
            if *at != Some(position) {
                reader.seek(SeekFrom::Start(position))?;
            }
            let len = read_some(reader, &mut buffer[..want.max(1)])?;
            *at = Some(position + len as u64);
            Ok(len)
        };
        let len = match (input, dir.as_deref_mut()) {
            (Input::Directory, Some(dir)) => read(dir, &mut at[slot])?,
            (Input::Directory, None) => 0,
            (Input::Data, _) => read(data, &mut at[slot])?,
        };
        if len == 0 {
            return Ok(archive.finish(visitor)?);
        }
        let mut chunk = &buffer[..len];
        loop {
            let progress = archive.feed(chunk, visitor)?;
            chunk = &chunk[progress.consumed..];
            match progress.status {
                Status::Paused => continue,
                Status::Done => return Ok(archive.finish(visitor)?),
                // The next read seeks unless the reader is already there.
                Status::Seek(_) | Status::NeedInput => {}
            }
            break;
        }
    }
}

/// `Read + Seek` as one object type, for the two readers of an archive.
trait ReadSeek: Read + Seek {}
impl<T: Read + Seek> ReadSeek for T {}

fn read_some(reader: &mut dyn ReadSeek, buffer: &mut [u8]) -> io::Result<usize> {
    loop {
        match reader.read(buffer) {
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            result => return result,
        }
    }
}

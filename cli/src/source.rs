//! Decoding a file from disk with the library's reader helpers: seeking where the format
//! needs it (Stories files), or as a stream that cannot seek (`--no-seek`).

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;

use gtastream::io::{decode_reader, decode_stream, ReadError};
use gtastream::{Decoder, Options, Visitor};

/// How the file is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Seek wherever the decoder asks (`Status::Seek`).
    Seekable,
    /// Read front to back only; a file that needs a seek fails with `SeekRequired`.
    Stream,
}

/// Why decoding a file failed.
pub enum Failure {
    Open(io::Error),
    Read(ReadError),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Open(error) => error.fmt(f),
            Failure::Read(error) => error.fmt(f),
        }
    }
}

/// Decodes the file at `path` into `visitor`; returns how many seeks the decoder asked for.
pub fn decode(path: &Path, access: Access, visitor: &mut impl Visitor) -> Result<u64, Failure> {
    let file = File::open(path).map_err(Failure::Open)?;
    let mut reader = CountSeeks {
        inner: file,
        seeks: 0,
    };
    let result = match access {
        Access::Seekable => decode_reader(&mut Decoder::new(), &mut reader, visitor),
        Access::Stream => {
            let mut decoder = Decoder::with_options(Options {
                can_seek: false,
                ..Options::DEFAULT
            });
            decode_stream(&mut decoder, &mut reader, visitor)
        }
    };
    result.map_err(Failure::Read)?;
    Ok(reader.seeks)
}

/// A reader that counts the seeks to absolute offsets, which `decode_reader` makes once per
/// `Status::Seek` (it asks for the start position with `SeekFrom::Current(0)`, not counted).
struct CountSeeks<R> {
    inner: R,
    seeks: u64,
}

impl<R: Read> Read for CountSeeks<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf)
    }
}

impl<R: Seek> Seek for CountSeeks<R> {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        if let SeekFrom::Start(_) = pos {
            self.seeks += 1;
        }
        self.inner.seek(pos)
    }
}

//! Decoding a file from disk with the library's reader helpers: seeking where the format
//! needs it (Stories files), or as a stream that cannot seek (`--no-seek`).

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;

use gtastream::context::{self, Tracked};
use gtastream::io::{decode_reader, decode_stream, ReadError};
use gtastream::{Decoder, Game, Options, Visitor};

/// How the file is read, and what the caller knows of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    /// Seek wherever the decoder asks (`Status::Seek`); else read front to back only, and a
    /// file that needs a seek fails with `SeekRequired`.
    pub seek: bool,
    /// Text IPL: the game named with `--game`.
    pub game: Option<Game>,
}

/// Why decoding a file failed.
pub enum Failure {
    Open(io::Error),
    Read(ReadError),
    /// The bytes did not decode: the error, where, and what was decoded before it.
    Decode(Box<context::Failure>),
    Other(String),
}

impl Failure {
    /// A read's failure; a decoding error with the context `tracked` kept.
    pub fn of<V>(error: ReadError, decoder: &Decoder, tracked: &Tracked<V>) -> Failure {
        match error {
            ReadError::Decode(error) => {
                Failure::Decode(Box::new(tracked.failure_in(decoder, error)))
            }
            other => Failure::Read(other),
        }
    }

    /// The decoding error, if that is what failed.
    pub fn decode_error(&self) -> Option<&context::Failure> {
        match self {
            Failure::Decode(failure) => Some(failure),
            _ => None,
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Open(error) => error.fmt(f),
            Failure::Read(error) => error.fmt(f),
            Failure::Decode(failure) => failure.fmt(f),
            Failure::Other(message) => message.fmt(f),
        }
    }
}

/// Decodes the file at `path` into `visitor`; returns how many seeks the decoder asked for.
/// A decoding error comes with its context ([`Failure::Decode`]).
pub fn decode(path: &Path, access: Access, visitor: &mut impl Visitor) -> Result<u64, Failure> {
    let file = File::open(path).map_err(Failure::Open)?;
    let mut reader = CountSeeks::new(file);
    let mut decoder = Decoder::with_options(Options {
        can_seek: access.seek,
        game: access.game,
    });
    let mut tracked = Tracked::new(visitor);
    let result = match access.seek {
        true => decode_reader(&mut decoder, &mut reader, &mut tracked),
        false => decode_stream(&mut decoder, &mut reader, &mut tracked),
    };
    result.map_err(|e| Failure::of(e, &decoder, &tracked))?;
    Ok(reader.seeks)
}

/// A reader that counts the seeks to absolute offsets, which `decode_reader` makes once per
/// `Status::Seek` (it asks for the start position with `SeekFrom::Current(0)`, not counted).
pub struct CountSeeks<R> {
    inner: R,
    pub seeks: u64,
}

impl<R> CountSeeks<R> {
    pub fn new(inner: R) -> Self {
        CountSeeks { inner, seeks: 0 }
    }
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

/// Decodes standard input front to back (a pipe cannot seek): a file that needs a seek
/// fails with the offset it needs. `head` is what was read of it already.
pub fn decode_stdin(
    head: &[u8],
    game: Option<Game>,
    visitor: &mut impl Visitor,
) -> Result<u64, Failure> {
    let stdin = io::BufReader::with_capacity(64 * 1024, io::stdin().lock());
    let mut reader = head.chain(stdin);
    let mut decoder = Decoder::with_options(Options {
        can_seek: false,
        game,
    });
    let mut tracked = Tracked::new(visitor);
    decode_stream(&mut decoder, &mut reader, &mut tracked)
        .map_err(|e| Failure::of(e, &decoder, &tracked))?;
    Ok(0)
}

/// The line number (from 1) of each offset of the file at `path`, in a pass that reads it in
/// pieces: the number of line breaks before the offset, plus one.
pub fn line_numbers(path: &Path, offsets: &[u64]) -> Result<Vec<u32>, Failure> {
    let Some(&last) = offsets.iter().max() else {
        return Ok(Vec::new());
    };
    let mut file = File::open(path).map_err(Failure::Open)?;
    // Line breaks before each offset, counted in one pass over the bytes up to the last.
    let mut breaks_before: Vec<(u64, u32)> = Vec::new();
    let mut sorted: Vec<u64> = offsets.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut next = sorted.iter().peekable();
    let (mut at, mut breaks) = (0u64, 0u32);
    let mut buf = vec![0; 64 << 10];
    while at <= last {
        let n = file.read(&mut buf).map_err(Failure::Open)?;
        for &byte in &buf[..n] {
            while next.peek().is_some_and(|&&o| o == at) {
                breaks_before.push((at, breaks));
                next.next();
            }
            breaks += u32::from(byte == b'\n');
            at += 1;
        }
        if n == 0 {
            break;
        }
    }
    // Offsets at or past the end (the end of input).
    for &o in next {
        breaks_before.push((o, breaks));
    }
    Ok(offsets
        .iter()
        .map(|o| {
            let i = breaks_before.partition_point(|&(at, _)| at < *o);
            breaks_before[i].1 + 1
        })
        .collect())
}

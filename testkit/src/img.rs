//! IMG archives built in code (docs/FORMATS.md, archives): an [`Img`] is records and a data
//! file, written as version 2 (one `.img`) or version 1 (`.dir` and `.img`), with every field
//! of a record settable so that tests can build the oddities real archives have; and the
//! driver that feeds an archive decoder in pieces ([`feed_in_pieces`]).

use gtastream::archive::{ArchiveDecoder, ArchiveVisitor, Input};
use gtastream::{Error, Status};

/// The size of a sector: offsets and sizes in a directory count sectors.
pub const SECTOR: usize = 2048;

/// A directory record as written.
#[derive(Clone, Debug)]
pub struct Record {
    /// In sectors.
    pub offset: u32,
    /// In sectors (version 2 writes its low 16 bits).
    pub size: u32,
    /// Version 2's second size field.
    pub size2: u16,
    pub name: [u8; 24],
}

/// A name field: `text`, then zeros.
pub fn name(text: &str) -> [u8; 24] {
    let mut field = [0u8; 24];
    field[..text.len()].copy_from_slice(text.as_bytes());
    field
}

/// An archive under construction: records and the data file.
#[derive(Default, Clone, Debug)]
pub struct Img {
    pub records: Vec<Record>,
    pub data: Vec<u8>,
}

impl Img {
    /// Puts `bytes` at sector `at` (zero padding to the sector boundary) and records it.
    pub fn add_at(&mut self, entry: &str, at: u32, bytes: &[u8]) -> &mut Self {
        let sectors = bytes.len().div_ceil(SECTOR);
        let start = at as usize * SECTOR;
        let end = start + sectors * SECTOR;
        if self.data.len() < end {
            self.data.resize(end, 0);
        }
        self.data[start..start + bytes.len()].copy_from_slice(bytes);
        self.records.push(Record {
            offset: at,
            size: sectors as u32,
            size2: 0,
            name: name(entry),
        });
        self
    }

    /// Puts `bytes` after everything placed so far, leaving sector 0 to a version 2
    /// directory (of up to 63 records).
    pub fn add(&mut self, entry: &str, bytes: &[u8]) -> &mut Self {
        let at = (self.data.len().div_ceil(SECTOR) as u32).max(1);
        self.add_at(entry, at, bytes)
    }

    /// Entries placed in the reverse order of their records (data out of directory order),
    /// after room for a version 2 directory in sector 0.
    pub fn reversed<N: AsRef<str>>(entries: &[(N, Vec<u8>)]) -> Img {
        let mut img = Img::default();
        let sectors = |b: &[u8]| b.len().div_ceil(SECTOR) as u32;
        let mut at = 1 + entries.iter().map(|(_, b)| sectors(b)).sum::<u32>();
        for (entry, bytes) in entries {
            at -= sectors(bytes);
            img.add_at(entry.as_ref(), at, bytes);
        }
        img
    }

    /// Entries placed one after the other in directory order, after room for a version 2
    /// directory of all of them.
    pub fn in_order<N: AsRef<str>, B: AsRef<[u8]>>(entries: &[(N, B)]) -> Img {
        let mut img = Img::default();
        let mut at = (8 + 32 * entries.len()).div_ceil(SECTOR) as u32;
        for (entry, bytes) in entries {
            img.add_at(entry.as_ref(), at, bytes.as_ref());
            at += img.records.last().unwrap().size;
        }
        img
    }

    /// Each record's bytes in the data: (byte offset, byte length), in record order.
    pub fn places(&self) -> Vec<(usize, usize)> {
        let bytes = |sectors: u32| sectors as usize * SECTOR;
        self.records
            .iter()
            .map(|r| (bytes(r.offset), bytes(r.size)))
            .collect()
    }

    /// The version 2 file: header and records over the front of the data.
    pub fn v2(&self) -> Vec<u8> {
        self.v2_count(self.records.len() as u32)
    }

    /// The version 2 file with `count` in its header, whatever the records.
    pub fn v2_count(&self, count: u32) -> Vec<u8> {
        let mut out = self.data.clone();
        let directory = 8 + 32 * self.records.len();
        if out.len() < directory {
            out.resize(directory, 0);
        }
        out[..4].copy_from_slice(b"VER2");
        out[4..8].copy_from_slice(&count.to_le_bytes());
        for (i, r) in self.records.iter().enumerate() {
            let at = 8 + 32 * i;
            out[at..at + 4].copy_from_slice(&r.offset.to_le_bytes());
            out[at + 4..at + 6].copy_from_slice(&(r.size as u16).to_le_bytes());
            out[at + 6..at + 8].copy_from_slice(&r.size2.to_le_bytes());
            out[at + 8..at + 32].copy_from_slice(&r.name);
        }
        out
    }

    /// The version 1 pair: `.dir` and `.img`.
    pub fn v1(&self) -> (Vec<u8>, Vec<u8>) {
        let mut dir = Vec::new();
        for r in &self.records {
            dir.extend_from_slice(&r.offset.to_le_bytes());
            dir.extend_from_slice(&r.size.to_le_bytes());
            dir.extend_from_slice(&r.name);
        }
        (dir, self.data.clone())
    }
}

/// Feeds `archive` pieces of at most `chunk` bytes of the file it asks for (`dir` or `data`),
/// from the position it wants, resuming pauses, until it is done or the input ends; then
/// finishes it.
pub fn feed_in_pieces<V: ArchiveVisitor>(
    archive: &mut ArchiveDecoder,
    dir: &[u8],
    data: &[u8],
    chunk: usize,
    visitor: &mut V,
) -> Result<(), Error> {
    loop {
        let file = match archive.input() {
            Input::Directory => dir,
            Input::Data => data,
        };
        let at = usize::try_from(archive.position()).unwrap_or(usize::MAX);
        let rest = file.get(at..).unwrap_or_default();
        let mut piece = &rest[..rest.len().min(chunk)];
        if piece.is_empty() {
            return archive.finish(visitor);
        }
        loop {
            let progress = archive.feed(piece, visitor)?;
            piece = &piece[progress.consumed..];
            match progress.status {
                Status::Paused => continue,
                Status::Done => return archive.finish(visitor),
                Status::NeedInput | Status::Seek(_) => break,
            }
        }
    }
}

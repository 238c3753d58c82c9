//! IMG archives built byte by byte from docs/FORMATS.md §5: records placed anywhere, sizes and
//! second size fields as given, junk where asked. The writer under test never builds them.

const SECTOR: usize = 2048;

/// A directory record as written.
#[derive(Clone, Debug)]
pub struct Record {
    pub offset: u32,
    pub size: u32,
    /// Version 2's second size field.
    pub size2: u16,
    pub name: [u8; 24],
}

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

    /// The next free sector after everything placed so far, at least `first`.
    pub fn next_sector(&self, first: u32) -> u32 {
        (self.data.len().div_ceil(SECTOR) as u32).max(first)
    }

    pub fn add(&mut self, entry: &str, bytes: &[u8]) -> &mut Self {
        let at = self.next_sector(self.first_data_sector());
        self.add_at(entry, at, bytes)
    }

    /// Room for a version 2 directory of up to 63 records in sector 0.
    pub fn first_data_sector(&self) -> u32 {
        1
    }

    /// The version 2 file: header and records over the front of the data.
    pub fn v2(&self) -> Vec<u8> {
        self.v2_count(self.records.len() as u32)
    }

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

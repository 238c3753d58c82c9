//! A writer of Stories `.anim` files (FORMATS.md §3), written from the spec for the fuzz seeds
//! and the hostile tests (which include this file by path). It uses only `std`, and returns
//! where it put every part, so tests can derive expected offsets without the decoder.

/// A keyframe as stored: half-float bits of `qx qy qz qw dt` and, with translation, `tx ty tz`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Key {
    pub q: [u16; 4],
    pub dt: u16,
    pub t: Option<[u16; 3]>,
}

/// A bone row. The translation flag (0x02) must agree with the keys' `t`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub flags: u16,
    pub key: u32,
    pub keys: Vec<Key>,
    /// The frames offset written when there are no keys (never followed).
    pub garbage: u32,
}

/// An animation record and its bone table.
#[derive(Clone, Debug, PartialEq)]
pub struct Clip {
    pub name: Vec<u8>,
    pub duration: f32,
    pub rows: Vec<Row>,
}

/// Where the parts go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Record, bone table, keyframes; clip after clip.
    DepthFirst,
    /// All records, then all bone tables, then all keyframes.
    Grouped,
    /// Keyframes (last first), then bone tables, then records: every pointer points back.
    Backward,
}

/// The file and where its parts lie.
#[derive(Clone, Debug, Default)]
pub struct Written {
    pub bytes: Vec<u8>,
    pub records: Vec<u32>,
    pub tables: Vec<u32>,
    /// Keyframes of each clip's rows.
    pub frames: Vec<Vec<u32>>,
    pub reloc_at: u32,
    pub reloc_count: u32,
}

pub const HEADER: u32 = 0x20;
pub const ROW: u32 = 12;

/// Bytes of one stored key.
pub fn key_size(row: &Row) -> u32 {
    if row.flags & 0x02 != 0 {
        16
    } else {
        10
    }
}

/// `f32` to half-float bits, rounding toward zero; values outside the normal range of a half
/// become zero or infinity.
pub fn half(value: f32) -> u16 {
    let bits = value.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exponent = ((bits >> 23) & 0xff) as i32 - 127 + 15;
    let mantissa = ((bits >> 13) & 0x3ff) as u16;
    if value.is_nan() {
        sign | 0x7e00
    } else if exponent <= 0 {
        sign
    } else if exponent >= 31 {
        sign | 0x7c00
    } else {
        sign | ((exponent as u16) << 10) | mantissa
    }
}

/// A key of rotation `q`, delta `dt` and optional translation.
pub fn key(q: [f32; 4], dt: f32, t: Option<[f32; 3]>) -> Key {
    Key {
        q: q.map(half),
        dt: half(dt),
        t: t.map(|t| t.map(half)),
    }
}

fn put_u32(bytes: &mut [u8], at: u32, value: u32) {
    let at = at as usize;
    bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

/// Writes `clips` as a Stories file: VCS records (0x28 bytes) if `vcs`, else LCS (0x24).
/// The relocation table, last, lists every pointer field: the offset table's entries, each
/// record's bone table pointer and each followed frames pointer.
pub fn write(clips: &[Clip], layout: Layout, vcs: bool) -> Written {
    write_padded(clips, layout, vcs, 0)
}

/// As [`write`], with `pad` zero bytes after the offset table (a zero entry ends it).
pub fn write_padded(clips: &[Clip], layout: Layout, vcs: bool, pad: u32) -> Written {
    let record = if vcs { 0x28 } else { 0x24 };
    let n = clips.len();
    let mut cursor = HEADER + 4 * n as u32 + pad;
    let mut place = |size: u32| {
        let at = cursor;
        cursor += size;
        at
    };
    let mut w = Written {
        records: vec![0; n],
        tables: vec![0; n],
        frames: clips.iter().map(|c| vec![0; c.rows.len()]).collect(),
        ..Written::default()
    };
    let table_size = |c: &Clip| ROW * c.rows.len() as u32;
    let keys_size = |r: &Row| key_size(r) * r.keys.len() as u32;
    match layout {
        Layout::DepthFirst => {
            for (i, c) in clips.iter().enumerate() {
                w.records[i] = place(record);
                w.tables[i] = place(table_size(c));
                for (j, r) in c.rows.iter().enumerate() {
                    w.frames[i][j] = place(keys_size(r));
                }
            }
        }
        Layout::Grouped => {
            for r in w.records.iter_mut() {
                *r = place(record);
            }
            for (i, c) in clips.iter().enumerate() {
                w.tables[i] = place(table_size(c));
            }
            for (i, c) in clips.iter().enumerate() {
                for (j, r) in c.rows.iter().enumerate() {
                    w.frames[i][j] = place(keys_size(r));
                }
            }
        }
        Layout::Backward => {
            for (i, c) in clips.iter().enumerate().rev() {
                for (j, r) in c.rows.iter().enumerate().rev() {
                    w.frames[i][j] = place(keys_size(r));
                }
            }
            for (i, c) in clips.iter().enumerate().rev() {
                w.tables[i] = place(table_size(c));
            }
            for i in (0..n).rev() {
                w.records[i] = place(record);
            }
        }
    }
    let data_end = cursor;
    let mut bytes = vec![0u8; data_end as usize];
    bytes[..4].copy_from_slice(b"mina");
    let mut relocs = Vec::new();
    for (i, c) in clips.iter().enumerate() {
        let entry = HEADER + 4 * i as u32;
        put_u32(&mut bytes, entry, w.records[i]);
        relocs.push(entry);
        let r = w.records[i] as usize;
        put_u32(&mut bytes, w.records[i], w.tables[i]);
        relocs.push(w.records[i]);
        let name_len = c.name.len().min(24);
        bytes[r + 4..r + 4 + name_len].copy_from_slice(&c.name[..name_len]);
        bytes[r + 0x1C..r + 0x1E].copy_from_slice(&(c.rows.len() as i16).to_le_bytes());
        bytes[r + 0x20..r + 0x24].copy_from_slice(&c.duration.to_le_bytes());
        if vcs {
            put_u32(&mut bytes, w.records[i] + 0x24, 0x1234_5678);
        }
        for (j, row) in c.rows.iter().enumerate() {
            let at = w.tables[i] + ROW * j as u32;
            let a = at as usize;
            bytes[a..a + 2].copy_from_slice(&row.flags.to_le_bytes());
            bytes[a + 2..a + 4].copy_from_slice(&(row.keys.len() as i16).to_le_bytes());
            let frames = if row.keys.is_empty() {
                row.garbage
            } else {
                relocs.push(at + 4);
                w.frames[i][j]
            };
            put_u32(&mut bytes, at + 4, frames);
            put_u32(&mut bytes, at + 8, row.key);
            let mut f = w.frames[i][j] as usize;
            for k in &row.keys {
                let halves = k.q.iter().chain([&k.dt]).chain(k.t.iter().flatten());
                for h in halves {
                    bytes[f..f + 2].copy_from_slice(&h.to_le_bytes());
                    f += 2;
                }
            }
        }
    }
    relocs.sort_unstable();
    w.reloc_at = data_end;
    w.reloc_count = relocs.len() as u32;
    for r in &relocs {
        bytes.extend_from_slice(&r.to_le_bytes());
    }
    let file_end = bytes.len() as u32;
    put_u32(&mut bytes, 0x08, file_end);
    put_u32(&mut bytes, 0x0C, data_end);
    put_u32(&mut bytes, 0x10, w.reloc_at);
    put_u32(&mut bytes, 0x14, w.reloc_count);
    w.bytes = bytes;
    w
}

/// Real-shaped content: `clips` animations of `bones` bones with `keys` keys each; the
/// first bone of each carries translation, every fourth bone has no keys.
pub fn shaped(clips: usize, bones: usize, keys: usize) -> Vec<Clip> {
    (0..clips)
        .map(|c| Clip {
            name: format!("clip{c:03}").into_bytes(),
            duration: keys as f32 / 30.0,
            rows: (0..bones)
                .map(|b| {
                    let translation = b == 0;
                    let count = if b % 4 == 3 { 0 } else { keys };
                    Row {
                        flags: 0x01 | if translation { 0x02 } else { 0 } | 0x10,
                        key: 0xB0_0000 | b as u32,
                        keys: (0..count)
                            .map(|k| {
                                let s = (k as f32 * 0.1).sin();
                                let dt = if k == 0 { 0.0 } else { 1.0 / 30.0 };
                                key([s, 0.0, 0.0, 1.0], dt, translation.then_some([0.0, s, 1.0]))
                            })
                            .collect(),
                        garbage: if count == 0 { 0xFFFF_FFF0 } else { 0 },
                    }
                })
                .collect(),
        })
        .collect()
}

//! The writer of Stories `.anim` files (docs/FORMATS.md §3), from the spec alone: the same
//! content laid out three ways, LCS (0x24-byte) or VCS (0x28-byte) records, and where every
//! part went ([`Written`]), so tests derive expected offsets without the decoder. Also the
//! content several tests share ([`sample`], [`big`], [`shaped`]).

/// A keyframe as stored: half-float bits of `qx qy qz qw dt` and, with translation, `tx ty tz`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    pub rotation: [u16; 4],
    pub dt: u16,
    pub translation: Option<[u16; 3]>,
}

/// A bone row. The translation flag (0x02) must agree with the frames' `translation`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoneRow {
    pub flags: u16,
    pub key: u32,
    pub frames: Vec<Frame>,
    /// Written as the frames offset of a bone without frames (never followed).
    pub garbage_offset: u32,
}

/// An animation record and its bone table. Names longer than the 24-byte field are cut.
#[derive(Clone, Debug, PartialEq)]
pub struct Anim {
    pub name: &'static str,
    pub duration: f32,
    pub bones: Vec<BoneRow>,
}

/// Where the parts go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Record, its bone table, its keyframes; animation after animation.
    DepthFirst,
    /// All records, then all bone tables, then all keyframes.
    Grouped,
    /// Keyframes first (last bone first), then bone tables, then records: every pointer
    /// points backwards.
    Backward,
}

/// The file and where its parts lie.
#[derive(Clone, Debug, Default)]
pub struct Written {
    pub bytes: Vec<u8>,
    pub records: Vec<u32>,
    pub tables: Vec<u32>,
    /// Keyframes of each animation's rows.
    pub frames: Vec<Vec<u32>>,
    pub reloc_at: u32,
    pub reloc_count: u32,
}

pub const HEADER: u32 = 0x20;
pub const ROW: u32 = 12;

/// Bytes of one stored keyframe of `row`.
pub fn key_size(row: &BoneRow) -> u32 {
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

/// [`half`] of a value a half holds exactly (zero or normal); panics otherwise, so a fixture
/// cannot silently store something else than the test expects.
pub fn exact_half(value: f32) -> u16 {
    let h = half(value);
    let exact = value == 0.0 || {
        let exponent = ((value.to_bits() >> 23) & 0xff) as i32 - 127 + 15;
        (1..31).contains(&exponent) && value.to_bits() & 0x1fff == 0
    };
    assert!(exact, "{value} is not exact in a half");
    h
}

/// A keyframe from values a half represents exactly.
pub fn frame(rotation: [f32; 4], dt: f32, translation: Option<[f32; 3]>) -> Frame {
    Frame {
        rotation: rotation.map(exact_half),
        dt: exact_half(dt),
        translation: translation.map(|t| t.map(exact_half)),
    }
}

/// A keyframe from any values, each rounded toward zero to a half.
pub fn rounded(rotation: [f32; 4], dt: f32, translation: Option<[f32; 3]>) -> Frame {
    Frame {
        rotation: rotation.map(half),
        dt: half(dt),
        translation: translation.map(|t| t.map(half)),
    }
}

fn put_u32(bytes: &mut [u8], at: u32, value: u32) {
    let at = at as usize;
    bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

/// Writes `anims` with VCS records (0x28 bytes) if `vcs`, else LCS ones (0x24), and `pad` zero
/// bytes between the offset table and the first part (a zero entry ends the table).
pub fn write(anims: &[Anim], layout: Layout, vcs: bool, pad: usize) -> Vec<u8> {
    write_placed(anims, layout, vcs, pad as u32).bytes
}

/// As [`write`], also saying where every part went. The relocation table, last, lists every
/// pointer field: the offset table's entries, each record's bone table pointer and each
/// followed frames pointer.
pub fn write_placed(anims: &[Anim], layout: Layout, vcs: bool, pad: u32) -> Written {
    let record = if vcs { 0x28 } else { 0x24 };
    let n = anims.len();
    let mut cursor = HEADER + 4 * n as u32 + pad;
    let mut place = |size: u32| {
        let at = cursor;
        cursor += size;
        at
    };
    let mut w = Written {
        records: vec![0; n],
        tables: vec![0; n],
        frames: anims.iter().map(|a| vec![0; a.bones.len()]).collect(),
        ..Written::default()
    };
    let table_size = |a: &Anim| ROW * a.bones.len() as u32;
    let keys_size = |r: &BoneRow| key_size(r) * r.frames.len() as u32;
    match layout {
        Layout::DepthFirst => {
            for (i, a) in anims.iter().enumerate() {
                w.records[i] = place(record);
                w.tables[i] = place(table_size(a));
                for (j, r) in a.bones.iter().enumerate() {
                    w.frames[i][j] = place(keys_size(r));
                }
            }
        }
        Layout::Grouped => {
            for r in w.records.iter_mut() {
                *r = place(record);
            }
            for (i, a) in anims.iter().enumerate() {
                w.tables[i] = place(table_size(a));
            }
            for (i, a) in anims.iter().enumerate() {
                for (j, r) in a.bones.iter().enumerate() {
                    w.frames[i][j] = place(keys_size(r));
                }
            }
        }
        Layout::Backward => {
            for (i, a) in anims.iter().enumerate().rev() {
                for (j, r) in a.bones.iter().enumerate().rev() {
                    w.frames[i][j] = place(keys_size(r));
                }
            }
            for (i, a) in anims.iter().enumerate().rev() {
                w.tables[i] = place(table_size(a));
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
    for (i, a) in anims.iter().enumerate() {
        let entry = HEADER + 4 * i as u32;
        put_u32(&mut bytes, entry, w.records[i]);
        relocs.push(entry);
        let r = w.records[i] as usize;
        put_u32(&mut bytes, w.records[i], w.tables[i]);
        relocs.push(w.records[i]);
        let name_len = a.name.len().min(24);
        bytes[r + 4..r + 4 + name_len].copy_from_slice(&a.name.as_bytes()[..name_len]);
        bytes[r + 0x1C..r + 0x1E].copy_from_slice(&(a.bones.len() as i16).to_le_bytes());
        bytes[r + 0x20..r + 0x24].copy_from_slice(&a.duration.to_le_bytes());
        if vcs {
            put_u32(&mut bytes, w.records[i] + 0x24, 0x1234_5678);
        }
        for (j, row) in a.bones.iter().enumerate() {
            let at = w.tables[i] + ROW * j as u32;
            let b = at as usize;
            bytes[b..b + 2].copy_from_slice(&row.flags.to_le_bytes());
            bytes[b + 2..b + 4].copy_from_slice(&(row.frames.len() as i16).to_le_bytes());
            let frames = if row.frames.is_empty() {
                row.garbage_offset
            } else {
                relocs.push(at + 4);
                w.frames[i][j]
            };
            put_u32(&mut bytes, at + 4, frames);
            put_u32(&mut bytes, at + 8, row.key);
            let mut f = w.frames[i][j] as usize;
            for k in &row.frames {
                let halves = k.rotation.iter().chain([&k.dt]);
                for h in halves.chain(k.translation.iter().flatten()) {
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

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

/// Rewrites the relocation table (which the writer puts last) as `keep` says, then appends
/// `extra` positions; updates `numRelocs` and `fileEnd`.
fn edit_relocs(bytes: &mut Vec<u8>, keep: impl Fn(u32) -> bool, extra: &[u32]) {
    let (file_end, reloc_at, count) = (u32_at(bytes, 8), u32_at(bytes, 0x10), u32_at(bytes, 0x14));
    assert_eq!(
        file_end as usize,
        bytes.len(),
        "the file must end with its relocation table"
    );
    assert_eq!(reloc_at + 4 * count, file_end);
    let listed: Vec<u32> = (0..count as usize)
        .map(|i| u32_at(bytes, reloc_at as usize + 4 * i))
        .filter(|&p| keep(p))
        .chain(extra.iter().copied())
        .collect();
    bytes.truncate(reloc_at as usize);
    for p in &listed {
        bytes.extend_from_slice(&p.to_le_bytes());
    }
    let file_end = bytes.len() as u32;
    bytes[0x14..0x18].copy_from_slice(&(listed.len() as u32).to_le_bytes());
    bytes[0x08..0x0C].copy_from_slice(&file_end.to_le_bytes());
}

/// Appends `positions` to the relocation table and updates `numRelocs` and `fileEnd`.
pub fn add_relocs(bytes: &mut Vec<u8>, positions: &[u32]) {
    edit_relocs(bytes, |_| true, positions);
}

/// Leaves the positions `drop` selects out of the relocation table.
pub fn drop_relocs(bytes: &mut Vec<u8>, drop: impl Fn(u32) -> bool) {
    edit_relocs(bytes, |p| !drop(p), &[]);
}

/// Content for the layout tests: several animations, every kind of bone row (translation or
/// not, bone ids from flag 0x10 including negative ones, platform flag 0x08, no flags at all,
/// no keyframes with a garbage offset, a time going backwards), a name using all 24 bytes, an
/// animation without bones.
pub fn sample() -> Vec<Anim> {
    let q = [0.5, -0.25, 0.0, 0.8125];
    vec![
        Anim {
            name: "walk_player",
            duration: 1.0,
            bones: vec![
                BoneRow {
                    flags: 0x13,
                    key: 0x1A2B_0000,
                    frames: vec![
                        frame(q, 0.0, Some([0.0, 0.125, 1.0])),
                        frame([-0.5, 0.25, 0.75, 0.375], 0.5, Some([0.5, 0.25, -1.0])),
                        frame([1.0, -0.0, 0.0, 0.0], 0.5, Some([2.0, -8.0, 1024.0])),
                    ],
                    garbage_offset: 0,
                },
                BoneRow {
                    flags: 0x11,
                    key: 0xFFFF_FFFF,
                    frames: vec![frame(q, 0.0, None), frame([0.0, 0.0, 1.0, 0.0], 1.0, None)],
                    garbage_offset: 0,
                },
                BoneRow {
                    flags: 0x01,
                    key: 0xDEAD_BEEF,
                    frames: vec![],
                    garbage_offset: 0xFFFF_FFF0,
                },
                BoneRow {
                    flags: 0x09,
                    key: 0x0000_0020,
                    frames: vec![
                        frame(q, 0.25, None),
                        frame(q, 0.375, None),
                        frame(q, -0.125, None),
                        frame(q, 0.5, None),
                    ],
                    garbage_offset: 0,
                },
            ],
        },
        Anim {
            name: "abcdefghijklmnopqrstuvwx",
            duration: 0.5,
            bones: vec![BoneRow {
                flags: 0x1B,
                key: 0x1234_8001,
                frames: vec![frame([0.0, 0.0, 0.0, 1.0], 0.0, Some([3.0, 4.0, 5.0]))],
                garbage_offset: 0,
            }],
        },
        Anim {
            name: "empty",
            duration: 0.0,
            bones: vec![],
        },
        Anim {
            name: "idle",
            duration: 2.0,
            bones: vec![
                BoneRow {
                    flags: 0x00,
                    key: 0x0BAD_F00D,
                    frames: vec![frame(q, 0.0, None), frame(q, 2.0, None)],
                    garbage_offset: 0,
                },
                BoneRow {
                    flags: 0x10,
                    key: 0x0000_7FFF,
                    frames: vec![],
                    // Behind every record: following it would need a seek.
                    garbage_offset: 0x10,
                },
            ],
        },
    ]
}

/// Many animations and keyframes (about 60 KiB): far more than one read of a reader.
pub fn big(layout: Layout) -> Vec<u8> {
    let anims: Vec<Anim> = (0..20)
        .map(|i| Anim {
            name: numbered("a", i, 2),
            duration: i as f32,
            bones: (0..4)
                .map(|j| BoneRow {
                    flags: if j % 2 == 0 { 0x13 } else { 0x01 },
                    key: (i * 16 + j) as u32,
                    frames: (0..60)
                        .map(|k| {
                            let x = (k % 8) as f32 * 0.125;
                            let t = (j % 2 == 0).then_some([x, -x, 2.0]);
                            frame([x, 0.5, -x, 1.0], 0.0625, t)
                        })
                        .collect(),
                    garbage_offset: 0,
                })
                .collect(),
        })
        .collect();
    write(&anims, layout, true, 4)
}

/// Real-shaped content: `anims` animations of `bones` bones with `keys` keyframes each; the
/// first bone of each carries translation, every fourth bone has no keyframes.
pub fn shaped(anims: usize, bones: usize, keys: usize) -> Vec<Anim> {
    (0..anims)
        .map(|c| Anim {
            name: numbered("clip", c, 3),
            duration: keys as f32 / 30.0,
            bones: (0..bones)
                .map(|b| {
                    let translation = b == 0;
                    let count = if b % 4 == 3 { 0 } else { keys };
                    BoneRow {
                        flags: 0x01 | if translation { 0x02 } else { 0 } | 0x10,
                        key: 0xB0_0000 | b as u32,
                        frames: (0..count)
                            .map(|k| {
                                let s = (k as f32 * 0.1).sin();
                                let dt = if k == 0 { 0.0 } else { 1.0 / 30.0 };
                                rounded(
                                    [s, 0.0, 0.0, 1.0],
                                    dt,
                                    translation.then_some([0.0, s, 1.0]),
                                )
                            })
                            .collect(),
                        garbage_offset: if count == 0 { 0xFFFF_FFF0 } else { 0 },
                    }
                })
                .collect(),
        })
        .collect()
}

/// `prefix` and `n` in `digits` digits, as a `'static` name (leaked: tests make few).
fn numbered(prefix: &str, n: usize, digits: usize) -> &'static str {
    Box::leak(format!("{prefix}{n:0digits$}").into_boxed_str())
}

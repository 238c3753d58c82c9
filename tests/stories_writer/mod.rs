//! A writer of Stories `.anim` files for the tests (FORMATS.md §3), laying out the same content
//! three ways, and the content the Stories tests share.
#![allow(dead_code)]

/// A keyframe as stored: half-float bits.
#[derive(Clone, Debug)]
pub struct Frame {
    pub rotation: [u16; 4],
    pub dt: u16,
    pub translation: Option<[u16; 3]>,
}

#[derive(Clone, Debug)]
pub struct BoneRow {
    pub flags: u16,
    pub key: u32,
    pub frames: Vec<Frame>,
    /// Written as the frames offset of a bone without frames (never followed).
    pub garbage_offset: u32,
}

#[derive(Clone, Debug)]
pub struct Anim {
    pub name: &'static str,
    pub duration: f32,
    pub bones: Vec<BoneRow>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Layout {
    /// Record, its bone table, its keyframes; animation after animation.
    DepthFirst,
    /// All records, then all bone tables, then all keyframes.
    Grouped,
    /// Keyframes first (last bone first), then bone tables, then records: every pointer
    /// points backwards.
    Backward,
}

/// `f32` to half-float bits, for values a half represents exactly (normal range).
pub fn half(value: f32) -> u16 {
    if value == 0.0 {
        return if value.is_sign_negative() { 0x8000 } else { 0 };
    }
    let bits = value.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exponent = ((bits >> 23) & 0xff) as i32 - 127 + 15;
    assert!((1..31).contains(&exponent), "{value} is not a normal half");
    let mantissa = bits & 0x7f_ffff;
    assert_eq!(mantissa & 0x1fff, 0, "{value} is not exact in a half");
    sign | ((exponent as u16) << 10) | (mantissa >> 13) as u16
}

struct Out {
    bytes: Vec<u8>,
    relocs: Vec<u32>,
}

impl Out {
    fn at(&self) -> u32 {
        self.bytes.len() as u32
    }
    fn u16(&mut self, v: u16) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
    fn u32(&mut self, v: u32) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
    fn pointer(&mut self, v: u32) {
        self.relocs.push(self.at());
        self.u32(v);
    }
    fn patch(&mut self, at: u32, v: u32) {
        self.bytes[at as usize..at as usize + 4].copy_from_slice(&v.to_le_bytes());
    }
}

fn frames_size(bone: &BoneRow) -> usize {
    bone.frames.len() * if bone.flags & 2 != 0 { 16 } else { 10 }
}

/// Writes the animations with `vcs` records (0x28 bytes) or LCS ones (0x24), and `pad` zero
/// bytes between the offset table and the first record.
pub fn write(anims: &[Anim], layout: Layout, vcs: bool, pad: usize) -> Vec<u8> {
    let record_size = if vcs { 0x28 } else { 0x24 };
    let mut out = Out {
        bytes: vec![0; 0x20],
        relocs: Vec::new(),
    };
    out.bytes[0..4].copy_from_slice(b"mina");
    let table_at = out.at();
    for _ in anims {
        out.pointer(0);
    }
    out.bytes.extend(std::iter::repeat_n(0, pad));
    // Plan the positions of every part, then write them in place.
    let n = anims.len();
    let mut record_at = vec![0u32; n];
    let mut table_of = vec![0u32; n];
    let mut frames_at: Vec<Vec<u32>> = anims.iter().map(|a| vec![0; a.bones.len()]).collect();
    let mut cursor = out.at();
    let mut place = |size: usize| {
        let at = cursor;
        cursor += size as u32;
        at
    };
    match layout {
        Layout::DepthFirst => {
            for (i, a) in anims.iter().enumerate() {
                record_at[i] = place(record_size);
                table_of[i] = place(12 * a.bones.len());
                for (j, b) in a.bones.iter().enumerate() {
                    frames_at[i][j] = place(frames_size(b));
                }
            }
        }
        Layout::Grouped => {
            for r in record_at.iter_mut() {
                *r = place(record_size);
            }
            for (i, a) in anims.iter().enumerate() {
                table_of[i] = place(12 * a.bones.len());
            }
            for (i, a) in anims.iter().enumerate() {
                for (j, b) in a.bones.iter().enumerate() {
                    frames_at[i][j] = place(frames_size(b));
                }
            }
        }
        Layout::Backward => {
            for (i, a) in anims.iter().enumerate().rev() {
                for (j, b) in a.bones.iter().enumerate().rev() {
                    frames_at[i][j] = place(frames_size(b));
                }
            }
            for (i, a) in anims.iter().enumerate().rev() {
                table_of[i] = place(12 * a.bones.len());
            }
            for i in (0..n).rev() {
                record_at[i] = place(record_size);
            }
        }
    }
    let data_end = cursor;
    out.bytes.resize(data_end as usize, 0);
    let mut relocs = out.relocs.clone();
    for (i, a) in anims.iter().enumerate() {
        out.patch(table_at + 4 * i as u32, record_at[i]);
        let mut rec = Vec::new();
        rec.extend_from_slice(&table_of[i].to_le_bytes());
        relocs.push(record_at[i]);
        let mut name = [0u8; 24];
        name[..a.name.len()].copy_from_slice(a.name.as_bytes());
        rec.extend_from_slice(&name);
        rec.extend_from_slice(&(a.bones.len() as i16).to_le_bytes());
        rec.extend_from_slice(&[0, 0]);
        rec.extend_from_slice(&a.duration.to_le_bytes());
        if vcs {
            rec.extend_from_slice(&0x1234_5678u32.to_le_bytes());
        }
        let r = record_at[i] as usize;
        out.bytes[r..r + rec.len()].copy_from_slice(&rec);
        for (j, b) in a.bones.iter().enumerate() {
            let row_at = table_of[i] as usize + 12 * j;
            let frames = if b.frames.is_empty() {
                b.garbage_offset
            } else {
                frames_at[i][j]
            };
            let mut row = Vec::new();
            row.extend_from_slice(&b.flags.to_le_bytes());
            row.extend_from_slice(&(b.frames.len() as i16).to_le_bytes());
            row.extend_from_slice(&frames.to_le_bytes());
            row.extend_from_slice(&b.key.to_le_bytes());
            out.bytes[row_at..row_at + 12].copy_from_slice(&row);
            if !b.frames.is_empty() {
                relocs.push(row_at as u32 + 4);
            }
            let mut f = frames_at[i][j] as usize;
            for frame in &b.frames {
                let mut halves: Vec<u16> = frame.rotation.to_vec();
                halves.push(frame.dt);
                halves.extend(frame.translation.iter().flatten());
                for h in halves {
                    out.bytes[f..f + 2].copy_from_slice(&h.to_le_bytes());
                    f += 2;
                }
            }
        }
    }
    relocs.sort();
    let reloc_at = out.at();
    for r in &relocs {
        out.u32(*r);
    }
    let file_end = out.at();
    out.patch(0x08, file_end);
    out.patch(0x0C, data_end);
    out.patch(0x10, reloc_at);
    out.patch(0x14, relocs.len() as u32);
    out.bytes
}

/// A keyframe from values a half represents exactly.
pub fn frame(rotation: [f32; 4], dt: f32, translation: Option<[f32; 3]>) -> Frame {
    Frame {
        rotation: rotation.map(half),
        dt: half(dt),
        translation: translation.map(|t| t.map(half)),
    }
}

/// Appends `positions` to the relocation table (which the writer puts last) and updates
/// `numRelocs` and `fileEnd`.
pub fn add_relocs(bytes: &mut Vec<u8>, positions: &[u32]) {
    let u32_at = |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    let (file_end, reloc_at, count) = (u32_at(bytes, 8), u32_at(bytes, 0x10), u32_at(bytes, 0x14));
    assert_eq!(
        file_end as usize,
        bytes.len(),
        "the file must end with its relocation table"
    );
    assert_eq!(reloc_at + 4 * count, file_end);
    for p in positions {
        bytes.extend_from_slice(&p.to_le_bytes());
    }
    let count = count + positions.len() as u32;
    let file_end = bytes.len() as u32;
    bytes[0x14..0x18].copy_from_slice(&count.to_le_bytes());
    bytes[0x08..0x0C].copy_from_slice(&file_end.to_le_bytes());
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
    let names = [
        "a00", "a01", "a02", "a03", "a04", "a05", "a06", "a07", "a08", "a09", "a10", "a11", "a12",
        "a13", "a14", "a15", "a16", "a17", "a18", "a19",
    ];
    let anims: Vec<Anim> = names
        .iter()
        .enumerate()
        .map(|(i, name)| Anim {
            name,
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

//! A writer of Stories `.anim` files for the tests, laying out the same content three ways.
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

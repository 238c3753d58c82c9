//! A small writer of Stories `.anim` files (FORMATS.md §3) for the CLI tests, after the
//! library tests' `tests/stories_writer/mod.rs`: LCS records (0x24 bytes), keyframes given as
//! half-float bits, two layouts.

/// A keyframe as stored: half-float bits, `dt` the delta from the bone's previous frame.
pub struct Frame {
    pub rotation: [u16; 4],
    pub dt: u16,
    pub translation: Option<[u16; 3]>,
}

pub struct Bone {
    pub flags: u16,
    pub key: u32,
    pub frames: Vec<Frame>,
}

pub struct Anim {
    pub name: &'static str,
    pub duration: f32,
    pub bones: Vec<Bone>,
}

#[derive(Clone, Copy, Debug)]
pub enum Layout {
    /// Per animation: its record, its bone table, then its bones' keyframes in order.
    DepthFirst,
    /// Keyframes (last bone of the last animation first), then the bone tables, then the
    /// records (last first): every pointer points backwards.
    Backward,
}

const RECORD: usize = 0x24;

fn frames_size(bone: &Bone) -> usize {
    bone.frames.len() * if bone.flags & 0x02 != 0 { 16 } else { 10 }
}

fn put(bytes: &mut [u8], at: usize, data: &[u8]) {
    bytes[at..at + data.len()].copy_from_slice(data);
}

/// The file; its relocation table lists the pointers, but of the offset table only the
/// first `listed` entries (normally `anims.len()`: all of them).
pub fn write(anims: &[Anim], layout: Layout, listed: usize) -> Vec<u8> {
    let n = anims.len();
    let mut cursor = 0x20 + 4 * n;
    let mut place = |size: usize| {
        cursor += size;
        cursor - size
    };
    let mut record = vec![0; n];
    let mut table = vec![0; n];
    let mut frames: Vec<Vec<usize>> = anims.iter().map(|a| vec![0; a.bones.len()]).collect();
    match layout {
        Layout::DepthFirst => {
            for (i, a) in anims.iter().enumerate() {
                record[i] = place(RECORD);
                table[i] = place(12 * a.bones.len());
                for (j, b) in a.bones.iter().enumerate() {
                    frames[i][j] = place(frames_size(b));
                }
            }
        }
        Layout::Backward => {
            for (i, a) in anims.iter().enumerate().rev() {
                for (j, b) in a.bones.iter().enumerate().rev() {
                    frames[i][j] = place(frames_size(b));
                }
            }
            for (i, a) in anims.iter().enumerate().rev() {
                table[i] = place(12 * a.bones.len());
            }
            for r in record.iter_mut().rev() {
                *r = place(RECORD);
            }
        }
    }
    let data_end = cursor;
    let mut bytes = vec![0u8; data_end];
    let mut relocs: Vec<usize> = (0..listed).map(|i| 0x20 + 4 * i).collect();
    for (i, a) in anims.iter().enumerate() {
        put(&mut bytes, 0x20 + 4 * i, &(record[i] as u32).to_le_bytes());
        relocs.push(record[i]);
        put(&mut bytes, record[i], &(table[i] as u32).to_le_bytes());
        put(&mut bytes, record[i] + 4, a.name.as_bytes());
        put(
            &mut bytes,
            record[i] + 0x1C,
            &(a.bones.len() as i16).to_le_bytes(),
        );
        put(&mut bytes, record[i] + 0x20, &a.duration.to_le_bytes());
        for (j, b) in a.bones.iter().enumerate() {
            let row = table[i] + 12 * j;
            put(&mut bytes, row, &b.flags.to_le_bytes());
            put(&mut bytes, row + 2, &(b.frames.len() as i16).to_le_bytes());
            if !b.frames.is_empty() {
                put(&mut bytes, row + 4, &(frames[i][j] as u32).to_le_bytes());
                relocs.push(row + 4);
            }
            put(&mut bytes, row + 8, &b.key.to_le_bytes());
            let mut at = frames[i][j];
            for frame in &b.frames {
                let halves = frame.rotation.iter().chain([&frame.dt]);
                for h in halves.chain(frame.translation.iter().flatten()) {
                    put(&mut bytes, at, &h.to_le_bytes());
                    at += 2;
                }
            }
        }
    }
    relocs.sort();
    let reloc_at = bytes.len();
    for r in &relocs {
        bytes.extend_from_slice(&(*r as u32).to_le_bytes());
    }
    let header = [
        u32::from_le_bytes(*b"mina"),
        0,
        bytes.len() as u32,
        data_end as u32,
        reloc_at as u32,
        relocs.len() as u32,
    ];
    for (k, v) in header.iter().enumerate() {
        put(&mut bytes, 4 * k, &v.to_le_bytes());
    }
    bytes
}

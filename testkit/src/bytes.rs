//! The kit's byte writer: little-endian fields appended to a vector, for hand-made fixtures of
//! every format.

use crate::ifp2::{GARBAGE, NAME};

/// Appends little-endian fields to a byte vector.
#[derive(Clone, Debug, Default)]
pub struct Writer {
    pub out: Vec<u8>,
}

impl Writer {
    pub fn new() -> Self {
        Writer::default()
    }

    pub fn len(&self) -> usize {
        self.out.len()
    }

    pub fn is_empty(&self) -> bool {
        self.out.is_empty()
    }

    pub fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.out.extend_from_slice(b);
        self
    }

    pub fn u32(&mut self, v: u32) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }

    pub fn i32(&mut self, v: i32) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }

    pub fn i16(&mut self, v: i16) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }

    pub fn f32(&mut self, v: f32) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }

    /// A `char[24]` field: `name`, then (if there is room) a NUL, then `fill` to the end.
    pub fn name(&mut self, name: &[u8], fill: u8) -> &mut Self {
        assert!(name.len() <= NAME, "name longer than its field");
        self.bytes(name);
        if name.len() < NAME {
            self.out.push(0);
            for _ in name.len() + 1..NAME {
                self.out.push(fill);
            }
        }
        self
    }

    pub fn patch_u32(&mut self, at: usize, v: u32) {
        self.out[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }

    /// Where the next field goes.
    pub fn at(&self) -> u64 {
        self.out.len() as u64
    }

    /// A fixed `char[n]` field: `name`, a NUL if there is room, then garbage (0xCD).
    pub fn fixed(&mut self, name: &[u8], n: usize) -> &mut Self {
        assert!(name.len() <= n, "name longer than its field");
        self.bytes(name);
        if name.len() < n {
            self.out.push(0);
            self.out
                .resize(self.out.len() + n - name.len() - 1, GARBAGE);
        }
        self
    }

    /// Zeros up to a multiple of 4.
    pub fn pad4(&mut self) -> &mut Self {
        self.out.resize(self.out.len().next_multiple_of(4), 0);
        self
    }
}

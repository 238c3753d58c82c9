//! The round trip through the streaming encoder (docs/FORMATS.md §9): a file decoded into an
//! encoder of a fuzzer-chosen format, with the input cut into fuzzer-chosen pieces. Whatever
//! the input, nothing panics; when the encoder succeeds, its output decodes cleanly, keeps
//! every keyframe (exactly, or on the packed steps with `quantize`; scale only in ANPK), every
//! placement record, and writes back to the very same bytes. Written to its own format
//! (`ANP3`, `ANP2`, `ANPK` but `ANLF`) without `quantize`, a file that decodes comes out byte
//! for byte (§9.7).

use gtastream::encode::{EncodeOptions, Encoder, Lookahead};
use gtastream::{
    AnimationInfo, Decoder, ErrorKind, FileInfo, Flow, Format, IplCar, IplInstance, Keyframes, SectionLine,
    Status, Visitor,
};

const TARGETS: [Format; 5] = [
    Format::Anp3,
    Format::Anp2,
    Format::Anpk,
    Format::IplBinary,
    Format::IplText,
];

/// The values a writer keeps, as bits: keyframes (time, rotation, translation, scale) and
/// placement records.
#[derive(Default, Debug, PartialEq)]
struct Values {
    format: Option<Format>,
    /// More than one `file` event (an `ANLF`), or an animation the decoder could not keep as
    /// one unit (a name field of more than 248 bytes, a long `INFO`): not written back as is.
    merged: bool,
    frames: Vec<[u32; 11]>,
    records: Vec<Vec<u32>>,
    lines: Vec<(&'static str, Vec<u8>)>,
}

impl Visitor for Values {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        self.merged |= self.format.is_some();
        self.format.get_or_insert(info.format);
        Flow::Continue
    }
    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        self.merged |= info.raw.is_empty() && self.format == Some(Format::Anpk);
        Flow::Continue
    }
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        for k in frames.iter() {
            let mut bits = [0; 11];
            let values = [k.time]
                .into_iter()
                .chain(k.rotation)
                .chain(k.translation)
                .chain(k.scale);
            for (b, v) in bits.iter_mut().zip(values) {
                *b = v.to_bits();
            }
            self.frames.push(bits);
        }
        Flow::Continue
    }
    fn instance(&mut self, i: &IplInstance<'_>) -> Flow {
        let mut v: Vec<u32> = i
            .position
            .iter()
            .chain(&i.rotation)
            .map(|f| f.to_bits())
            .collect();
        v.extend([i.model_id as u32, i.interior, i.lod as u32]);
        self.records.push(v);
        Flow::Continue
    }
    fn car(&mut self, c: &IplCar) -> Flow {
        let mut v: Vec<u32> = c.position.iter().map(|f| f.to_bits()).collect();
        v.push(c.angle.to_bits());
        v.extend(
            [
                c.model_id,
                c.primary_color,
                c.secondary_color,
                c.flags,
                c.alarm_chance,
                c.door_lock_chance,
                c.min_delay,
                c.max_delay,
            ]
            .map(|x| x as u32),
        );
        self.records.push(v);
        Flow::Continue
    }
    fn section_line(&mut self, l: &SectionLine<'_>) -> Flow {
        self.lines.push((l.section, l.text.to_vec()));
        Flow::Continue
    }
}

/// Decodes `data` cut into pieces of `piece` bytes into `visitor`, following seeks, and on
/// after the content (its trailing bytes are events too).
fn decode_in_pieces<V: Visitor>(
    data: &[u8],
    piece: usize,
    visitor: &mut V,
) -> Result<(), ErrorKind> {
    let mut decoder = Decoder::new();
    let mut at: usize = 0;
    loop {
        let end = at.saturating_add(piece).min(data.len());
        let chunk = data.get(at..end).unwrap_or_default();
        let progress = decoder.feed(chunk, visitor).map_err(|e| e.kind)?;
        match progress.status {
            Status::Seek(to) => at = usize::try_from(to).unwrap_or(usize::MAX),
            Status::Paused => at += progress.consumed,
            Status::Done | Status::NeedInput if end >= data.len() => break,
            Status::Done | Status::NeedInput => at += progress.consumed,
        }
    }
    decoder.finish(visitor).map_err(|e| e.kind)
}

fn encode(data: &[u8], to: Format, quantize: bool, piece: usize, ahead: bool) -> Option<Vec<u8>> {
    let mut encoder = Encoder::new(to, Vec::new(), EncodeOptions::quantize(quantize)).ok()?;
    let result = if ahead {
        decode_in_pieces(data, piece, &mut Lookahead::new(&mut encoder, data))
    } else {
        decode_in_pieces(data, piece, &mut encoder)
    };
    if result.is_err() || !encoder.is_finished() {
        // Either the input does not decode, or the encoder refused it: nothing to compare.
        assert!(
            result.is_err(),
            "the decoder finished but the encoder did not"
        );
        return None;
    }
    Some(encoder.into_sink())
}

/// Rounds as the packed form does and decodes back.
fn quantized(bits: u32, scale: f32) -> u32 {
    let r = f32::from_bits(bits) * scale;
    let r = if r >= 0.0 { r + 0.5 } else { r - 0.5 };
    (f32::from(r as i16) / scale).to_bits()
}

/// Input: a byte of options (bits 0..2: target, 5 to 7 meaning ANP3, ANP2, ANPK through the
/// reading-ahead [`Lookahead`]; bit 3: quantize; bits 4..7: piece size), then the file. Returns whether the encoder wrote a file (which was then checked).
pub fn check(input: &[u8]) -> bool {
    let Some((&options, data)) = input.split_first() else {
        return false;
    };
    let to = TARGETS[usize::from(options & 7) % TARGETS.len()];
    let ahead = options & 7 >= 5;
    let quantize = options & 8 != 0;
    let piece = match options >> 4 {
        0 => usize::MAX,
        n => usize::from(n) * 3 - 2,
    };
    let Some(written) = encode(data, to, quantize, piece, ahead) else {
        return false;
    };
    let mut before = Values::default();
    Decoder::new()
        .decode_slice(data, &mut before)
        .expect("the source decoded once");
    let mut after = Values::default();
    Decoder::new()
        .decode_slice(&written, &mut after)
        .expect("the output decodes");
    let container = data.starts_with(b"ANLF");
    let own = before.format == Some(to)
        && matches!(to, Format::Anp3 | Format::Anp2 | Format::Anpk)
        && !before.merged
        && !container;
    if own && !quantize {
        assert!(written == data, "written back to its own format, the bytes changed");
    }
    if to.is_animation() {
        assert_eq!(after.frames.len(), before.frames.len());
        for (a, b) in after.frames.iter().zip(&before.frames) {
            let mut want = *b;
            if to != Format::Anpk {
                want[8..].fill(0);
            }
            if quantize && to != Format::Anpk {
                want[0] = quantized(b[0], 60.0);
                for w in &mut want[1..5] {
                    *w = quantized(*w, 4096.0);
                }
                for w in &mut want[5..8] {
                    *w = quantized(*w, 1024.0);
                }
                // (A bone without translation keeps zeros, which quantize to themselves.)
            }
            // Quantizing keeps a NaN a NaN, not its payload: any NaN stands for any other.
            let nan = |v: u32| if f32::from_bits(v).is_nan() { f32::NAN.to_bits() } else { v };
            assert_eq!(a.map(nan), want.map(nan));
        }
    } else {
        assert_eq!(after.records, before.records);
        assert_eq!(after.lines, before.lines);
    }
    // Writing the output again gives the same bytes.
    let again = encode(&written, to, quantize, usize::MAX, ahead).expect("the output writes again");
    assert!(again == written, "a second round changed the bytes");
    true
}

#[cfg(test)]
mod tests {
    /// Every seed file, every target, whole and in pieces, with and without quantize.
    #[test]
    fn seeds_pass() {
        let (mut written, mut all) = (0, 0);
        for (_, file) in crate::seeds::files() {
            for options in 0..=255u8 {
                let mut input = vec![options];
                input.extend_from_slice(&file);
                written += usize::from(super::check(&input));
                all += 1;
            }
        }
        assert!(written * 4 > all, "{written} of {all} written");
    }

    /// Seeds with random bytes changed, cut or repeated (a poor man's fuzzing, for machines
    /// without cargo-fuzz): nothing panics, and every output checks.
    #[test]
    fn mutated_seeds_pass() {
        let seeds = crate::seeds::files();
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..20_000 {
            let (_, file) = &seeds[next() as usize % seeds.len()];
            let mut input = vec![next() as u8];
            input.extend_from_slice(file);
            for _ in 0..1 + next() % 4 {
                let at = 1 + next() as usize % (input.len() - 1).max(1);
                match next() % 3 {
                    0 if at < input.len() => input[at] = next() as u8,
                    1 => input.truncate(at),
                    _ => {
                        let piece = input[at.min(input.len())..].iter().take(16).copied();
                        let piece: Vec<u8> = piece.collect();
                        input.extend(piece);
                    }
                }
            }
            super::check(&input);
        }
    }
}

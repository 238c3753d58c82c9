//! The round trip through the streaming encoder (docs/FORMATS.md §9): a file decoded into an
//! encoder of a fuzzer-chosen format, with the input cut into fuzzer-chosen pieces. Whatever
//! the input, nothing panics; when the encoder succeeds, its output decodes cleanly, keeps
//! every keyframe (exactly, or on the packed steps with `quantize`; scale only in ANPK), every
//! placement record, and writes back to the very same bytes. Written to its own format
//! (`ANP3`, `ANP2`, `ANPK` and `ANLF`, binary and text IPL, IDE) without `quantize`, a file that the
//! encoder writes comes out byte for byte (§9.7; a binary IPL whose sections lie apart is
//! refused instead).

use gtastream::encode::{EncodeOptions, Encoder, Lookahead};
use gtastream::{AnimationInfo, Decoder, ErrorKind, FileInfo, Flow, Format, Status, Visitor};
use testkit::ipl::Inst;
use testkit::log::{frame_bits, keyframes, Ev, Recorder};

const TARGETS: [Format; 5] = [
    Format::Anp3,
    Format::Anp2,
    Format::Anpk,
    Format::IplBinary,
    Format::IplText,
];

/// The events of a file, exact (NaN payloads count), without warnings.
fn events(data: &[u8], what: &str) -> Vec<Ev> {
    let mut log = Recorder::default().exact().without_warnings();
    Decoder::new()
        .decode_slice(data, &mut log)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    log.events
}

/// What every writer keeps of the placements: the records without model names and scales
/// (a binary IPL has neither), and apart from them, the section lines.
fn placements(events: &[Ev]) -> (Vec<Ev>, Vec<Ev>) {
    let records = events.iter().filter_map(|e| match e {
        Ev::Instance(i) => Some(Ev::Instance(Inst {
            model_name: None,
            scale: None,
            ..i.clone()
        })),
        Ev::Car(_) => Some(e.clone()),
        // An IDE's definitions, whole (an IDE is written only as an IDE).
        Ev::Model(record) if record.starts_with("IdeObject") => Some(e.clone()),
        _ => None,
    });
    let lines = events.iter().filter(|e| matches!(e, Ev::Line { .. }));
    (records.collect(), lines.cloned().collect())
}

/// Whether a file is written back to `format` byte for byte (§9.7): it is in that format (an
/// `ANLF` is `ANPK` blocks), and the decoder kept every unit (no ANPK animation with a name
/// field of more than 248 bytes or an `INFO` too long for the carry buffer). Placements always
/// are.
struct Exact {
    format: Format,
    kept: bool,
}

impl Visitor for Exact {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        // An ANPK block whose header did not fit the carry buffer is written clean.
        let unkept = info.format == Format::Anpk && info.name.is_some() && info.raw.is_empty();
        self.kept &= info.format == self.format && !unkept;
        Flow::Continue
    }
    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        self.kept &= !info.raw.is_empty();
        Flow::Continue
    }
}

fn written_back_exactly(data: &[u8], format: Format) -> bool {
    let mut exact = Exact { format, kept: true };
    let decoded = Decoder::new().decode_slice(data, &mut exact).is_ok();
    decoded && exact.kept
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

/// The text target is the source's own text format: an IDE is written as an IDE (its
/// definitions have no place in a text IPL).
fn text_format(data: &[u8]) -> Format {
    struct First(Option<Format>);
    impl Visitor for First {
        fn file(&mut self, info: &FileInfo<'_>) -> Flow {
            self.0 = Some(info.format);
            Flow::Abort
        }
    }
    let mut first = First(None);
    let _ = Decoder::new().decode_slice(data, &mut first);
    match first.0 {
        Some(Format::Ide) => Format::Ide,
        _ => Format::IplText,
    }
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
    let to = match TARGETS[usize::from(options & 7) % TARGETS.len()] {
        Format::IplText => text_format(data),
        to => to,
    };
    let ahead = options & 7 >= 5;
    let quantize = options & 8 != 0;
    let piece = match options >> 4 {
        0 => usize::MAX,
        n => usize::from(n) * 3 - 2,
    };
    let Some(written) = encode(data, to, quantize, piece, ahead) else {
        return false;
    };
    if !quantize && written_back_exactly(data, to) {
        assert!(
            written == data,
            "written back to its own format, the bytes changed"
        );
    }
    let before = events(data, "the source decoded once");
    let after = events(&written, "the output decodes");
    if to.is_animation() {
        let (before, after) = (keyframes(&before), keyframes(&after));
        assert_eq!(after.len(), before.len());
        for (a, b) in after.iter().zip(&before) {
            let (a, b) = (frame_bits(a), frame_bits(b));
            let mut want = b;
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
            let nan = |v: u32| {
                if f32::from_bits(v).is_nan() {
                    f32::NAN.to_bits()
                } else {
                    v
                }
            };
            assert_eq!(a.map(nan), want.map(nan));
        }
    } else {
        assert_eq!(placements(&after), placements(&before));
    }
    // Writing the output again gives the same bytes.
    let again = encode(&written, to, quantize, usize::MAX, ahead).expect("the output writes again");
    assert!(again == written, "a second round changed the bytes");
    true
}

#[cfg(test)]
mod tests {
    /// Every seed file, every target, whole and in pieces, with and without quantize.
    /// Found by the fuzzer in CI: a `path` section (both formats have one) whose line reads
    /// as neither, fed in 7-byte pieces.
    #[test]
    fn a_path_line_of_neither_format_in_pieces() {
        super::check(b"4pathinst\x0a\x2200iLn7657e-08( 2.173596769e-008\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xfd\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff, 1e, +.5, -0., 0, 1))))))))\xf4\x0a");
    }

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

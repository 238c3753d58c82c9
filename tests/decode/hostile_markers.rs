//! Hostile markers, names and sizes: zero and garbage ANPK chunk tags (the engines never check
//! them: a warning, except the keyframe tag that names the frame type), names that fill their
//! field without a NUL, an oversized INFO chunk, NAME lengths past `MAX_NAME`, and text lines
//! longer than `MAX_LINE`. Expected offsets follow docs/FORMATS.md: a tag warning points at its
//! chunk, a name or line error at the unit that holds it.

use gtastream::ErrorKind::{BadMagic, CountTooLarge, Limit, Malformed, UnknownFrameType};
use gtastream::MAX_NAME;
use testkit::hostile::*;

fn anpk_fixture() -> Fixture {
    anpk(&[&[(b"KRT0", 2, true)]])
}

fn with_tag(bytes: &[u8], at: u64, tag: &[u8; 4]) -> Vec<u8> {
    let mut bytes = bytes.to_vec();
    bytes[at as usize..at as usize + 4].copy_from_slice(tag);
    bytes
}

fn without_warnings(outcome: &Outcome) -> Vec<String> {
    outcome
        .lines
        .iter()
        .filter(|l| !l.starts_with("warning"))
        .cloned()
        .collect()
}

// ------------------------------------------------------------------------------------------
// ANPK tags

#[test]
fn anpk_zero_or_garbage_tags_are_warnings_at_their_chunk() {
    let f = anpk_fixture();
    let pristine = expect_ok(&f.bytes);
    assert!(pristine.warnings.is_empty(), "{:?}", pristine.warnings);
    let chunks = [
        f.at("info"),
        f.at("name0"),
        f.at("dgan0"),
        f.at("info0"),
        f.at("cpan0.0"),
        f.at("anim0.0"),
    ];
    for tag in [[0u8; 4], *b"XXXX", [0xFF; 4], *b"info"] {
        for &chunk in &chunks {
            let out = expect_ok(&with_tag(&f.bytes, chunk, &tag));
            assert_eq!(
                out.warnings,
                [("unexpected_tag", chunk)],
                "{tag:?} at {chunk}"
            );
            assert_eq!(without_warnings(&out), pristine.lines);
        }
        let mut all = f.bytes.clone();
        for &chunk in &chunks {
            all = with_tag(&all, chunk, &tag);
        }
        let out = expect_ok(&all);
        let expected: Vec<_> = chunks.iter().map(|&c| ("unexpected_tag", c)).collect();
        assert_eq!(out.warnings, expected, "{tag:?} everywhere");
        assert_eq!(without_warnings(&out), pristine.lines);
    }
}

#[test]
fn anpk_zero_or_garbage_keyframe_tag_is_an_unknown_frame_type() {
    let f = anpk_fixture();
    let kf = f.at("kf0.0");
    for tag in [[0u8; 4], *b"KR01", *b"krt0", *b"K000", [0xFF; 4]] {
        let out = expect_error(&with_tag(&f.bytes, kf, &tag), UnknownFrameType, kf);
        assert_eq!(out.count("bone "), 0, "the bone event waits for the tag");
    }
}

#[test]
fn zero_or_garbage_magic_is_bad_magic() {
    let f = anpk_fixture();
    for magic in [[0u8; 4], [0xFF; 4], *b"ANP\0", *b"\0NPK"] {
        expect_error(&with_tag(&f.bytes, 0, &magic), BadMagic, 0);
    }
    // Four printable bytes are the start of a text file, whatever follows; but a text file
    // must show a section keyword or a placement record, and this one does not.
    expect_error(
        &with_tag(&f.bytes, 0, b"ANP4"),
        crate::text_error(BadMagic),
        0,
    );
}

/// One object without keyframes followed by an 8-byte chunk `tag`, `size`; the chunk counted
/// in the CPAN, DGAN and ANPK sizes.
fn empty_keyframe_chunk(tag: &[u8; 4], size: u32) -> (Fixture, Vec<u8>) {
    let f = anpk(&[&[(b"KR00", 0, true)]]);
    let mut bytes = f.bytes.clone();
    bytes.extend_from_slice(tag);
    bytes.extend_from_slice(&size.to_le_bytes());
    for at in [f.at("cpan0.0") + 4, f.at("dgan0") + 4, 4] {
        let size = get_u32(&bytes, at);
        put_u32(&mut bytes, at, size + 8);
    }
    (f, bytes)
}

#[test]
fn anpk_empty_keyframe_chunk_after_an_object_without_keyframes() {
    for tag in [b"K000", b"KR00", b"KRT0", b"KRTS"] {
        let (_, bytes) = empty_keyframe_chunk(tag, 0);
        let out = expect_ok(&bytes);
        assert!(out.warnings.is_empty(), "{tag:?}: {:?}", out.warnings);
        assert_eq!(out.count("bone_end"), 1);
    }
    // Anything else is not part of the object: the sizes disagree, and it is stale data.
    for (tag, size) in [(b"XXXX", 0), (&[0u8; 4], 0), (b"K000", 4), (b"KR00", 20)] {
        let (f, bytes) = empty_keyframe_chunk(tag, size);
        let out = expect_ok(&bytes);
        let mut expected = vec![
            ("size_mismatch", f.at("cpan0.0") + 4),
            ("size_mismatch", f.at("dgan0") + 4),
            ("size_mismatch", 4),
        ];
        // Zero bytes after the content are archive padding: silent.
        if bytes[f.content_end as usize..].iter().any(|&b| b != 0) {
            expected.push(("trailing_data", first_nonzero(&bytes, f.content_end)));
        }
        assert_eq!(out.warnings, expected, "{tag:?} {size}");
    }
}

// ------------------------------------------------------------------------------------------
// Names without a NUL

#[test]
fn ifp2_names_filling_their_24_bytes() {
    for anp3 in [true, false] {
        let f = ifp2(anp3, &[&[(3, 1)]]);
        let mut bytes = f.bytes.clone();
        let full = b"ABCDEFGHIJKLMNOPQRSTUVWX";
        for at in [8, f.at("anim0"), f.at("bone0.0")] {
            bytes[at as usize..at as usize + 24].copy_from_slice(full);
        }
        let out = expect_ok(&bytes);
        assert!(out.lines[0].contains("name=Some(\"ABCDEFGHIJKLMNOPQRSTUVWX\")"));
        assert!(out.lines[1].starts_with("animation 0 \"ABCDEFGHIJKLMNOPQRSTUVWX\""));
        assert!(out.lines[2].starts_with("bone 0 Some(\"ABCDEFGHIJKLMNOPQRSTUVWX\")"));
    }
}

#[test]
fn anpk_object_name_filling_its_28_bytes() {
    let f = anpk_fixture();
    let mut bytes = f.bytes.clone();
    let body = f.at("body0.0") as usize;
    bytes[body..body + 28].copy_from_slice(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ01");
    let out = expect_ok(&bytes);
    assert!(out
        .first("bone ")
        .starts_with("bone 0 Some(\"ABCDEFGHIJKLMNOPQRSTUVWXYZ01\")"));
}

#[test]
fn anpk_names_without_nul() {
    let f = anpk_fixture();
    // NAME: 8 bytes, no NUL, no padding needed.
    let mut bytes = f.bytes.clone();
    let name = f.at("name0");
    put_u32(&mut bytes, name + 4, 8);
    bytes[name as usize + 8..name as usize + 16].copy_from_slice(b"ABCDEFGH");
    let out = expect_ok(&bytes);
    assert!(out
        .first("animation ")
        .starts_with("animation 0 \"ABCDEFGH\""));
    // INFO: the package name "PKGS" fills infoSize − 4 = 4 bytes.
    let mut bytes = f.bytes.clone();
    bytes[20..24].copy_from_slice(b"PKGS");
    let out = expect_ok(&bytes);
    assert!(
        out.lines[0].contains("name=Some(\"PKGS\")"),
        "{}",
        out.lines[0]
    );
}

// ------------------------------------------------------------------------------------------
// ANPK sizes: INFO, NAME, the animation's INFO

/// An ANPK block whose INFO chunk says `info_size` and holds a name field of `name_field`
/// bytes, with one animation named by a NAME chunk of `name_len` holding `name` (padded),
/// and no objects.
fn anpk_sized(info_size: u32, name_field: usize, name_len: u32, name: &[u8]) -> Vec<u8> {
    let mut w = W::default();
    w.bytes(b"ANPK").u32(0).bytes(b"INFO").u32(info_size).u32(1);
    w.out.resize(w.out.len() + name_field, b'p');
    w.bytes(b"NAME").u32(name_len).bytes(name).pad4();
    w.bytes(b"DGAN").u32(16).bytes(b"INFO").u32(8).u32(0).u32(0);
    let size = w.at() - 8;
    put_u32(&mut w.out, 4, size as u32);
    w.out
}

#[test]
fn anpk_info_size_bounds() {
    // INFO at 8: its name field is infoSize − 4 bytes, padded; at most MAX_NAME.
    let max = MAX_NAME as u32 + 4;
    let out = expect_ok(&anpk_sized(max, MAX_NAME, 2, b"a\0"));
    assert!(out.lines[0].contains(&"p".repeat(MAX_NAME)));
    for size in [max + 1, 0x1000, 0xFFFF_FFF0, u32::MAX] {
        expect_error(&anpk_sized(size, MAX_NAME, 2, b"a\0"), Limit, 8);
    }
    // Smaller than its own count.
    expect_error(&anpk_sized(0, 0, 2, b"a\0"), Malformed, 8);
}

#[test]
fn anpk_name_length_bounds() {
    // NAME at 20 + the INFO name field (4 here).
    let name_at = 24;
    let long = |n: usize| {
        let mut name = vec![b'n'; n - 1];
        name.push(0);
        name
    };
    let out = expect_ok(&anpk_sized(8, 4, MAX_NAME as u32, &long(MAX_NAME)));
    assert!(out.first("animation ").contains(&"n".repeat(MAX_NAME - 1)));
    for len in [MAX_NAME as u32 + 1, 1 << 20, 0xFFFF_FFF0, u32::MAX] {
        let n = (len as usize).min(MAX_NAME + 4);
        expect_error(&anpk_sized(8, 4, len, &long(n)), Limit, name_at);
    }
    // A NAME chunk of length 0: an empty name.
    let out = expect_ok(&anpk_sized(8, 4, 0, b""));
    assert!(out.first("animation ").starts_with("animation 0 \"\""));
}

#[test]
fn anpk_animation_info_size() {
    let f = anpk_fixture();
    let info = f.at("info0");
    let unit = f.at("name0") + 8;
    for size in [0xFFFF_FFF0, u32::MAX] {
        let mut bytes = f.bytes.clone();
        put_u32(&mut bytes, info + 4, size);
        expect_error(&bytes, CountTooLarge, unit);
    }
    let mut bytes = f.bytes.clone();
    put_u32(&mut bytes, info + 4, 0);
    expect_error(&bytes, Malformed, info);
}

// ------------------------------------------------------------------------------------------
// Text IPL lines

#[cfg(feature = "ipl-text")]
mod text {
    use super::*;
    use gtastream::{Decoder, Visitor, MAX_LINE};

    fn inst_line(len: usize) -> Vec<u8> {
        let mut line = b"1337, object, 0, 1.5, -2, 10, 0, 0, 0.7071, 0.7071, -1".to_vec();
        assert!(line.len() <= len);
        line.resize(len, b' ');
        line
    }

    /// Decodes `text` whole and returns the error and the line number the decoder reports.
    fn line_of_error(text: &[u8]) -> (Option<gtastream::Error>, Option<u32>) {
        struct Quiet;
        impl Visitor for Quiet {}
        let mut decoder = Decoder::new();
        let error = decoder.decode_slice(text, &mut Quiet).err();
        (error, decoder.line())
    }

    #[test]
    fn text_line_length_bounds() {
        // MAX_LINE counts the line break.
        let mut text = b"inst\n".to_vec();
        text.extend(inst_line(MAX_LINE - 1));
        text.extend(b"\nend\n");
        let out = expect_ok(&text);
        assert_eq!(out.count("instance "), 1);

        for (line, brk) in [
            (MAX_LINE, &b"\n"[..]),
            (MAX_LINE - 1, b"\r\n"),
            (4096, b"\n"),
        ] {
            let mut text = b"inst\n".to_vec();
            text.extend(inst_line(line));
            text.extend(brk);
            text.extend(b"end\n");
            expect_error(&text, Limit, 5);
        }
        // The first line (before anything shows a placement file: none), and a last line
        // without a line break.
        expect_error(&inst_line(MAX_LINE), BadMagic, 0);
        let mut text = b"cull\n".to_vec();
        text.extend(inst_line(MAX_LINE));
        expect_error(&text, Limit, 5);
        let mut text = b"cull\n".to_vec();
        text.extend(inst_line(MAX_LINE - 1));
        let out = expect_ok(&text);
        assert_eq!(out.count("line cull"), 1);
        assert_eq!(
            out.warnings,
            [("unclosed_section", 5 + MAX_LINE as u64 - 1)]
        );
    }

    /// `Decoder::line` names the line being decoded, or that failed (from 1).
    #[test]
    fn text_line_number_of_a_line_too_long() {
        let mut text = b"inst\n".to_vec();
        text.extend(inst_line(MAX_LINE));
        text.extend(b"\n");
        let (error, line) = line_of_error(&text);
        assert_eq!(error.map(|e| (e.kind, e.offset)), Some((Limit, 5)));
        assert_eq!(line, Some(2));
        let mut text = b"cull\n# c\n".to_vec();
        text.extend(inst_line(MAX_LINE));
        let (error, line) = line_of_error(&text);
        assert_eq!(error.map(|e| (e.kind, e.offset)), Some((Limit, 9)));
        assert_eq!(line, Some(3));
    }
}

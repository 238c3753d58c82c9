//! Hostile counts: 0, −1 and 0xFFFFFFFF (the same bits for 32-bit fields; for the i16 counts of
//! Stories files −1, i16::MIN and i16::MAX), and the largest count that still fits a 4 GiB file
//! and one more, in every count field of every format. Each ends in the defined error or
//! warning at the offset docs/FORMATS.md puts it: errors at the unit holding the count, warnings at
//! the field they name, trailing data at its first non-zero byte. Every case is decoded whole,
//! byte by byte and in several chunk sizes, with the same result.

use gtastream::ErrorKind::{CountTooLarge, Malformed, Truncated, UnknownFrameType};
use testkit::hostile::*;

const FOUR_GIB: u64 = 1 << 32;

/// The largest count of `size`-byte records from `from` that a 4 GiB file can hold.
fn max_fitting(from: u64, size: u64) -> u32 {
    ((FOUR_GIB - from) / size) as u32
}

fn with_u32(bytes: &[u8], at: u64, value: u32) -> Vec<u8> {
    let mut bytes = bytes.to_vec();
    put_u32(&mut bytes, at, value);
    bytes
}

fn with_u16(bytes: &[u8], at: u64, value: u16) -> Vec<u8> {
    let mut bytes = bytes.to_vec();
    put_u16(&mut bytes, at, value);
    bytes
}

// ------------------------------------------------------------------------------------------
// IFP2: numAnimations (0x20), numBones (+24), numFrames (+28), and frameType (+24)

fn ifp2_fixture(anp3: bool) -> (Fixture, u64) {
    let header = if anp3 { 36 } else { 28 };
    (ifp2(anp3, &[&[(4, 2)]]), header)
}

#[test]
fn ifp2_animation_count() {
    for anp3 in [true, false] {
        let (f, header) = ifp2_fixture(anp3);
        let zero = expect_ok(&with_u32(&f.bytes, 32, 0));
        assert_eq!(zero.count("animation "), 0);
        assert!(zero.lines[0].contains("animations=0"));
        assert_eq!(
            zero.warnings,
            [("size_mismatch", 4), ("trailing_data", f.at("anim0"))]
        );
        expect_error(&with_u32(&f.bytes, 32, u32::MAX), CountTooLarge, 0);
        let max = max_fitting(36, header);
        let fits = expect_error(&with_u32(&f.bytes, 32, max), Truncated, f.content_end);
        assert_eq!(fits.count("animation_end"), 1);
        expect_error(&with_u32(&f.bytes, 32, max + 1), CountTooLarge, 0);
    }
}

#[test]
fn ifp2_bone_count() {
    for anp3 in [true, false] {
        let (f, header) = ifp2_fixture(anp3);
        let anim = f.at("anim0");
        let field = anim + 24;
        let zero = expect_ok(&with_u32(&f.bytes, field, 0));
        assert_eq!(zero.count("bone "), 0);
        let mut warnings = vec![];
        if anp3 {
            warnings.push(("frame_data_size_mismatch", anim + 28));
        }
        warnings.push(("size_mismatch", 4));
        warnings.push(("trailing_data", f.at("bone0.0")));
        assert_eq!(zero.warnings, warnings);
        expect_error(&with_u32(&f.bytes, field, u32::MAX), CountTooLarge, anim);
        let max = max_fitting(anim + header, 36);
        expect_error(&with_u32(&f.bytes, field, max), Truncated, f.content_end);
        expect_error(&with_u32(&f.bytes, field, max + 1), CountTooLarge, anim);
    }
}

#[test]
fn ifp2_frame_count_and_type() {
    for anp3 in [true, false] {
        let (f, _) = ifp2_fixture(anp3);
        let bone = f.at("bone0.0");
        let zero = expect_ok(&with_u32(&f.bytes, bone + 28, 0));
        assert_eq!(zero.count("key "), 0);
        assert_eq!(zero.count("bone_end"), 1);
        let mut warnings = vec![];
        if anp3 {
            warnings.push(("frame_data_size_mismatch", f.at("anim0") + 28));
        }
        warnings.push(("size_mismatch", 4));
        warnings.push(("trailing_data", f.at("frames0.0")));
        assert_eq!(zero.warnings, warnings);
        expect_error(
            &with_u32(&f.bytes, bone + 28, u32::MAX),
            CountTooLarge,
            bone,
        );
        for frame_type in [0, 5, u32::MAX] {
            expect_error(
                &with_u32(&f.bytes, bone + 24, frame_type),
                UnknownFrameType,
                bone,
            );
        }
    }
}

// ------------------------------------------------------------------------------------------
// ANPK: numAnimations (INFO), numObjects (animation INFO), numFrames (ANIM), the ANIM size,
// and the ANLF block count

fn anpk_fixture() -> Fixture {
    anpk(&[&[(b"KRT0", 2, true)]])
}

#[test]
fn anpk_animation_count() {
    let f = anpk_fixture();
    let field = f.at("count");
    let zero = expect_ok(&with_u32(&f.bytes, field, 0));
    assert_eq!(zero.count("animation "), 0);
    assert_eq!(
        zero.warnings,
        [("size_mismatch", 4), ("trailing_data", f.at("name0"))]
    );
    for count in [u32::MAX, 0x8000_0000, 0x7FFF_FFFF] {
        expect_error(&with_u32(&f.bytes, field, count), CountTooLarge, 0);
    }
}

#[test]
fn anpk_object_count() {
    let f = anpk_fixture();
    let field = f.at("info0") + 8;
    let zero = expect_ok(&with_u32(&f.bytes, field, 0));
    assert_eq!(zero.count("bone "), 0);
    assert_eq!(
        zero.warnings,
        [
            ("size_mismatch", f.at("dgan0") + 4),
            ("size_mismatch", 4),
            ("trailing_data", f.at("cpan0.0")),
        ]
    );
    // The count is read with the animation's name and the DGAN and INFO headers, one unit
    // that starts at the name.
    let unit = f.at("name0") + 8;
    for count in [u32::MAX, 0x8000_0000, 0x7FFF_FFFF] {
        expect_error(&with_u32(&f.bytes, field, count), CountTooLarge, unit);
    }
}

#[test]
fn anpk_frame_count_and_anim_size() {
    let f = anpk_fixture();
    let body = f.at("body0.0");
    let zero = expect_ok(&with_u32(&f.bytes, body + 28, 0));
    assert_eq!(zero.count("key "), 0);
    assert!(zero.first("bone ").ends_with("frames=0"));
    assert_eq!(
        zero.warnings,
        [
            ("size_mismatch", f.at("cpan0.0") + 4),
            ("size_mismatch", f.at("dgan0") + 4),
            ("size_mismatch", 4),
            ("trailing_data", f.at("kf0.0")),
        ]
    );
    for count in [u32::MAX, 0x8000_0000, 0x7FFF_FFFF] {
        expect_error(&with_u32(&f.bytes, body + 28, count), CountTooLarge, body);
    }
    let anim = f.at("anim0.0");
    for size in [0, 40, 45, 47, u32::MAX] {
        expect_error(&with_u32(&f.bytes, anim + 4, size), Malformed, anim);
    }
}

#[test]
fn anlf_block_count() {
    let block = anpk_fixture().bytes;
    let mut anlf = W::default();
    anlf.bytes(b"ANLF").u32(4 + block.len() as u32).u32(1);
    anlf.bytes(&block);
    let anlf = anlf.out;
    let one = expect_ok(&anlf);
    assert_eq!(one.count("key "), 2);
    assert!(one.warnings.is_empty(), "{:?}", one.warnings);
    let zero = expect_ok(&with_u32(&anlf, 8, 0));
    assert_eq!(zero.warnings, [("size_mismatch", 4), ("trailing_data", 12)]);
    for count in [u32::MAX, 0x8000_0000, 0x7FFF_FFFF] {
        expect_error(&with_u32(&anlf, 8, count), CountTooLarge, 0);
    }
    expect_error(&with_u32(&anlf, 8, 2), Truncated, anlf.len() as u64);
}

// ------------------------------------------------------------------------------------------
// Stories: numRelocs, fileEnd, numBones (i16), numFrames (i16), numClasses / numFuncs

fn stories_fixture() -> Fixture {
    stories(&stories_clips(), stories::Layout::DepthFirst, false, 0)
}

#[test]
fn stories_relocation_count() {
    let f = stories_fixture();
    let zero = expect_ok(&with_u32(&f.bytes, 0x14, 0));
    assert_eq!(zero.lines.len(), 2, "{:#?}", zero.lines);
    assert!(zero.lines[0].contains("animations=0"));
    expect_error(&with_u32(&f.bytes, 0x14, u32::MAX), CountTooLarge, 0x14);
    let count = get_u32(&f.bytes, 0x14);
    expect_error(
        &with_u32(&f.bytes, 0x14, count + 1),
        Truncated,
        f.bytes.len() as u64,
    );
}

#[test]
fn stories_file_end() {
    let f = stories_fixture();
    // Every entry lies outside [0x20, 0): no animation; the table is trailing data.
    let zero = expect_ok(&with_u32(&f.bytes, 0x08, 0));
    assert!(zero.lines[0].contains("animations=0"));
    assert_eq!(zero.warnings, [("trailing_data", 0x20)]);
    // A copy that stops short of fileEnd is truncated there.
    let huge = expect_error(
        &with_u32(&f.bytes, 0x08, u32::MAX),
        Truncated,
        u32::MAX as u64,
    );
    assert_eq!(huge.count("animation_end"), 3);
}

#[test]
fn stories_unread_header_counts_change_nothing() {
    let f = stories_fixture();
    let pristine = expect_ok(&f.bytes);
    let odd = with_u32(&f.bytes, 0x1C, u32::MAX);
    assert_eq!(expect_ok(&odd), pristine);
}

#[test]
fn stories_bone_count() {
    let f = stories_fixture();
    let record = f.at("record0");
    let zero = expect_ok(&with_u16(&f.bytes, record + 0x1C, 0));
    assert!(zero.first("animation 0").contains("bones=0"));
    assert_eq!(zero.count("animation_end"), 3);
    assert_eq!(zero.count("bone "), 1, "only the second animation's bone");
    for count in [0xFFFF, 0x8000] {
        expect_error(
            &with_u16(&f.bytes, record + 0x1C, count),
            CountTooLarge,
            record,
        );
    }
    // i16::MAX bones, their table in 5 zero rows (bones without keyframes) and a cut row.
    let mut bytes = with_u16(&f.bytes, record + 0x1C, 0x7FFF);
    let table = bytes.len() as u64;
    put_u32(&mut bytes, record, table as u32);
    bytes.resize(bytes.len() + 5 * 12 + 7, 0);
    let out = expect_error(&bytes, Truncated, table + 5 * 12);
    assert!(out.first("animation 0").contains("bones=32767"));
    assert_eq!(out.count("bone "), 5);
    assert_eq!(out.count("bone_end"), 5);
}

#[test]
fn stories_frame_count() {
    let f = stories_fixture();
    let row = f.at("row0.0");
    let zero = expect_ok(&with_u16(&f.bytes, row + 2, 0));
    assert!(zero.first("bone 0").ends_with("frames=0"));
    assert_eq!(zero.count("key "), 4, "the other bones' keyframes");
    for count in [0xFFFF, 0x8000] {
        expect_error(&with_u16(&f.bytes, row + 2, count), CountTooLarge, row);
    }
    // i16::MAX keyframes of 16 bytes from the first bone's: the file ends inside one.
    let frames = f.at("frames0.0");
    let whole = (f.bytes.len() as u64 - frames) / 16;
    let out = expect_error(
        &with_u16(&f.bytes, row + 2, 0x7FFF),
        Truncated,
        frames + 16 * whole,
    );
    assert_eq!(out.count("key ") as u64, whole);
}

// ------------------------------------------------------------------------------------------
// Binary IPL: numInstances (0x04), numCars (0x14), the four unknown counts

#[test]
fn bnry_instance_count() {
    let f = bnry(2, 1);
    let zero = expect_ok(&with_u32(&f.bytes, 0x04, 0));
    assert_eq!(zero.count("instance "), 0);
    assert_eq!(zero.count("car "), 1);
    assert_eq!(zero.warnings, [("size_mismatch", 0x20)]);
    expect_error(&with_u32(&f.bytes, 0x04, u32::MAX), CountTooLarge, 0x04);
    let max = max_fitting(BNRY_HEADER, INSTANCE);
    // Instances run on over the car: three whole ones fit before the end.
    let fits = expect_error(
        &with_u32(&f.bytes, 0x04, max),
        Truncated,
        BNRY_HEADER + 3 * INSTANCE,
    );
    assert_eq!(fits.count("instance "), 3);
    expect_error(&with_u32(&f.bytes, 0x04, max + 1), CountTooLarge, 0x04);
}

#[test]
fn bnry_car_count() {
    let f = bnry(2, 1);
    let cars = f.at("cars");
    let zero = expect_ok(&with_u32(&f.bytes, 0x14, 0));
    assert_eq!(zero.count("instance "), 2);
    assert_eq!(zero.count("car "), 0);
    assert_eq!(
        zero.warnings,
        [
            ("size_mismatch", 0x40),
            ("trailing_data", first_nonzero(&f.bytes, cars))
        ]
    );
    expect_error(&with_u32(&f.bytes, 0x14, u32::MAX), CountTooLarge, 0x14);
    let max = max_fitting(cars, CAR);
    expect_error(&with_u32(&f.bytes, 0x14, max), Truncated, f.content_end);
    expect_error(&with_u32(&f.bytes, 0x14, max + 1), CountTooLarge, 0x14);
}

#[test]
fn bnry_unknown_counts_are_warnings() {
    let f = bnry(2, 1);
    let pristine = expect_ok(&f.bytes);
    let mut bytes = f.bytes.clone();
    for field in [0x08, 0x0C, 0x10, 0x18] {
        put_u32(&mut bytes, field, u32::MAX);
    }
    let odd = expect_ok(&bytes);
    assert_eq!(
        odd.warnings,
        [
            ("unknown_section", 0x08),
            ("unknown_section", 0x0C),
            ("unknown_section", 0x10),
            ("unknown_section", 0x18),
        ]
    );
    let without_warnings: Vec<_> = odd
        .lines
        .iter()
        .filter(|l| !l.starts_with("warning"))
        .cloned()
        .collect();
    assert_eq!(without_warnings, pristine.lines);
}

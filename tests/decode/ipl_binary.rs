//! Binary IPL (`bnry`, docs/FORMATS.md §4): byte-level cases written out in hex, every record field
//! at its offset, every header field's role, the section layouts (vanilla, padded, gaps, cars
//! first, empty, overlapping), seeks, trailing bytes, counts too large, and sniffing. Expected
//! values are worked out by hand from the spec; the reference decoder of `testkit::ipl` is checked
//! against the same hand-made expectations.

use core::f32::consts::FRAC_PI_2;

use gtastream::{
    Decoder, ErrorKind, Flow, Options, Progress, Record, Status, Visitor, WarningKind,
};
use testkit::ipl::*;

/// The decoder (whole input, and through `decode_slice`) and the reference decoder all report
/// `expected`.
fn check(file: &[u8], expected: &[Ev]) {
    assert_eq!(log(file), expected, "decoder, whole input");
    assert_eq!(log_slice(file), expected, "decoder, decode_slice");
    assert_eq!(reference(file).log(), expected, "reference decoder");
}

/// The events of the vanilla fixture, from the sample records it was written with.
fn vanilla_events(warnings_first: &[Ev]) -> Vec<Ev> {
    let mut out = warnings_first.to_vec();
    out.push(Ev::bnry_file(3, 2));
    out.extend(samples_inst(3).into_iter().map(Ev::Instance));
    out.extend(samples_car(2).into_iter().map(Ev::Car));
    out.push(Ev::End);
    out
}

fn fixture(name: &str) -> Vec<u8> {
    binary_fixtures()
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no fixture {name}"))
        .1
}

fn no_seek() -> Options {
    Options {
        can_seek: false,
        ..Options::DEFAULT
    }
}

// ---- Byte level ------------------------------------------------------------------------------

#[test]
fn hand_written_file() {
    let file = hand_bnry();
    assert_eq!(file.len(), 76 + 40 + 48);
    check(
        &file,
        &[
            Ev::bnry_file(1, 1),
            Ev::Instance(Inst::binary(
                [1.0, -2.0, 3.0],
                [0.5, -0.5, 0.25, -0.25],
                12345,
                0x10D,
                -1,
            )),
            Ev::Car(Car::new(
                [100.0, -200.0, 300.0],
                FRAC_PI_2,
                [400, -1, 126, 3, 50, 100, 1000, 10000],
            )),
            Ev::End,
        ],
    );
}

#[test]
fn the_test_writer_writes_the_hand_written_bytes() {
    // The fixtures below are written by `bnry`; it must agree with the hex above.
    let inst = Inst::binary([1.0, -2.0, 3.0], [0.5, -0.5, 0.25, -0.25], 12345, 0x10D, -1);
    let car = Car::new(
        [100.0, -200.0, 300.0],
        FRAC_PI_2,
        [400, -1, 126, 3, 50, 100, 1000, 10000],
    );
    assert_eq!(bnry(&[inst], 76, &[car], 116), hand_bnry());
}

/// A field's offset in its record, the bytes written there, and what that sets.
type FieldCase<T> = (usize, Vec<u8>, fn(&mut T));

#[test]
fn each_instance_field_at_its_offset() {
    // One 4-byte value at a time in an otherwise zero record: only that field changes.
    let minus5 = hex("00 00 a0 c0"); // -5.0
    let cases: [FieldCase<Inst>; 10] = [
        (0, minus5.clone(), |i| i.position[0] = -5.0),
        (4, minus5.clone(), |i| i.position[1] = -5.0),
        (8, minus5.clone(), |i| i.position[2] = -5.0),
        (12, minus5.clone(), |i| i.rotation[0] = -5.0),
        (16, minus5.clone(), |i| i.rotation[1] = -5.0),
        (20, minus5.clone(), |i| i.rotation[2] = -5.0),
        (24, minus5.clone(), |i| i.rotation[3] = -5.0),
        (28, hex("fe ff ff ff"), |i| i.model_id = -2),
        // Unsigned: the top bit is not a sign.
        (32, hex("ff ff ff 80"), |i| i.interior = 0x80FF_FFFF),
        (36, hex("07 00 00 00"), |i| i.lod = 7),
    ];
    for (at, bytes, set) in cases {
        let mut file = bnry(&[Inst::zero()], 76, &[], 0);
        put(&mut file, 76 + at, &bytes);
        let mut expected = Inst::zero();
        set(&mut expected);
        check(
            &file,
            &[Ev::bnry_file(1, 0), Ev::Instance(expected), Ev::End],
        );
    }
}

#[test]
fn each_car_field_at_its_offset() {
    let minus5 = hex("00 00 a0 c0"); // -5.0
    let cases: [FieldCase<Car>; 12] = [
        (0, minus5.clone(), |c| c.position[0] = -5.0),
        (4, minus5.clone(), |c| c.position[1] = -5.0),
        (8, minus5.clone(), |c| c.position[2] = -5.0),
        (12, minus5.clone(), |c| c.angle = -5.0),
        (16, hex("ff ff ff ff"), |c| c.model_id = -1),
        (20, hex("02 00 00 00"), |c| c.primary_color = 2),
        (24, hex("03 01 00 00"), |c| c.secondary_color = 259),
        (28, hex("02 00 00 00"), |c| c.flags = 2),
        (32, hex("63 00 00 00"), |c| c.alarm_chance = 99),
        (36, hex("00 00 00 80"), |c| c.door_lock_chance = i32::MIN),
        (40, hex("ff ff ff 7f"), |c| c.min_delay = i32::MAX),
        (44, hex("fe ff ff ff"), |c| c.max_delay = -2),
    ];
    for (at, bytes, set) in cases {
        let mut file = bnry(&[], 0, &[Car::zero()], 76);
        put(&mut file, 76 + at, &bytes);
        let mut expected = Car::zero();
        set(&mut expected);
        check(&file, &[Ev::bnry_file(0, 1), Ev::Car(expected), Ev::End]);
    }
}

#[test]
fn floats_are_reported_bit_for_bit() {
    // NaN payloads, infinities, negative zero and denormals pass through unchanged.
    let mut file = bnry(&[Inst::zero()], 76, &[Car::zero()], 116);
    put(
        &mut file,
        76,
        &hex("01 00 c0 7f  00 00 80 ff  00 00 00 80  01 00 00 00"),
    );
    put(&mut file, 116 + 12, &hex("ff ff ff ff"));
    let mut inst = Inst::zero();
    inst.position = [f32::from_bits(0x7FC0_0001), f32::NEG_INFINITY, -0.0];
    inst.rotation[0] = f32::from_bits(1);
    let mut car = Car::zero();
    car.angle = f32::from_bits(0xFFFF_FFFF);
    check(
        &file,
        &[
            Ev::bnry_file(1, 1),
            Ev::Instance(inst),
            Ev::Car(car),
            Ev::End,
        ],
    );
}

// ---- Header ----------------------------------------------------------------------------------

#[test]
fn file_event_reports_format_and_counts() {
    for (file, instances, cars) in [
        (vanilla(), 3, 2),
        (hand_bnry(), 1, 1),
        (fixture("empty"), 0, 0),
        (fixture("cars only, garbage instance offset"), 0, 2),
        (fixture("instances only, garbage car offset"), 3, 0),
    ] {
        let log = log(&file);
        assert_eq!(log[0], Ev::bnry_file(instances, cars));
        assert_eq!(
            log.iter().filter(|e| matches!(e, Ev::Instance(_))).count(),
            instances as usize
        );
        assert_eq!(
            log.iter().filter(|e| matches!(e, Ev::Car(_))).count(),
            cars as usize
        );
    }
}

#[test]
fn unknown_section_counts_warn_at_their_offsets() {
    for at in [0x08, 0x0C, 0x10, 0x18] {
        for value in [1, 0x8000_0000, u32::MAX] {
            let mut file = vanilla();
            put_u32(&mut file, at, value);
            check(
                &file,
                &vanilla_events(&[Ev::Warning(WarningKind::UnknownSection, at as u64)]),
            );
        }
    }
}

#[test]
fn unknown_section_offsets_and_sizes_are_ignored() {
    let mut file = vanilla();
    for b in &mut file[0x24..0x3C] {
        *b = 0xAA;
    }
    for b in &mut file[0x44..0x4C] {
        *b = 0xAA;
    }
    check(&file, &vanilla_events(&[]));
}

#[test]
fn size_fields_warn_when_non_zero_and_wrong() {
    // Vanilla: 3 instances (120 bytes), 2 cars (96 bytes).
    let mismatch = |at| Ev::Warning(WarningKind::SizeMismatch, at);
    let cases: [(u32, u32, Vec<Ev>); 8] = [
        (120, 96, vec![]),
        (0, 0, vec![]),
        (0, 96, vec![]),
        (40, 96, vec![mismatch(0x20)]),
        (120, 48, vec![mismatch(0x40)]),
        (121, 0, vec![mismatch(0x20)]),
        (u32::MAX, 1, vec![mismatch(0x20), mismatch(0x40)]),
        (96, 120, vec![mismatch(0x20), mismatch(0x40)]),
    ];
    for (inst_size, car_size, warnings) in cases {
        let mut file = vanilla();
        put_u32(&mut file, 0x20, inst_size);
        put_u32(&mut file, 0x40, car_size);
        check(&file, &vanilla_events(&warnings));
    }
}

#[test]
fn size_fields_of_empty_sections() {
    // No records: a non-zero size disagrees with them.
    let mut file = fixture("empty");
    put_u32(&mut file, 0x20, 40);
    check(
        &file,
        &[
            Ev::Warning(WarningKind::SizeMismatch, 0x20),
            Ev::bnry_file(0, 0),
            Ev::End,
        ],
    );
    put_u32(&mut file, 0x20, 0);
    put_u32(&mut file, 0x40, 48);
    check(
        &file,
        &[
            Ev::Warning(WarningKind::SizeMismatch, 0x40),
            Ev::bnry_file(0, 0),
            Ev::End,
        ],
    );
}

#[test]
fn all_header_warnings_in_offset_order_before_the_file_event() {
    use WarningKind::*;
    check(
        &fixture("header warnings"),
        &vanilla_events(&[
            Ev::Warning(UnknownSection, 0x08),
            Ev::Warning(UnknownSection, 0x0C),
            Ev::Warning(UnknownSection, 0x10),
            Ev::Warning(UnknownSection, 0x18),
            Ev::Warning(SizeMismatch, 0x20),
            Ev::Warning(SizeMismatch, 0x40),
        ]),
    );
}

// ---- Layouts ---------------------------------------------------------------------------------

#[test]
fn vanilla_file() {
    let file = vanilla();
    assert_eq!(file.len(), 76 + 120 + 96);
    check(&file, &vanilla_events(&[]));
}

#[test]
fn padded_to_a_sector_is_silent() {
    let file = fixture("padded to 2048");
    assert_eq!(file.len(), 2048);
    check(&file, &vanilla_events(&[]));
}

#[test]
fn feed_reports_done_once_the_content_is_complete() {
    let file = padded(vanilla(), 2048);
    let mut decoder = Decoder::new();
    let mut rec = Recorder::default();
    let need = |consumed| Progress {
        consumed,
        status: Status::NeedInput,
    };
    assert_eq!(decoder.feed(&file[..76], &mut rec), Ok(need(76)));
    assert_eq!(rec.events, [Ev::bnry_file(3, 2)]);
    assert_eq!(decoder.feed(&file[76..196], &mut rec), Ok(need(120)));
    assert_eq!(rec.events.len(), 4);
    // The last car completes the content.
    assert_eq!(
        decoder.feed(&file[196..292], &mut rec),
        Ok(Progress {
            consumed: 96,
            status: Status::Done
        })
    );
    assert_eq!(decoder.position(), 292);
    // Padding after it is consumed and skipped.
    assert_eq!(
        decoder.feed(&file[292..], &mut rec),
        Ok(Progress {
            consumed: 2048 - 292,
            status: Status::Done
        })
    );
    assert_eq!(decoder.position(), 2048);
    assert_eq!(decoder.finish(&mut rec), Ok(()));
    assert_eq!(rec.events, vanilla_events(&[]));
}

#[test]
fn gaps_between_sections_are_skipped_unread() {
    // Instances at 100 after 24 garbage bytes, cars 12 garbage bytes after them, zeros to 512.
    let file = fixture("gap between sections");
    assert_eq!(&file[76..80], &[0xEE; 4]);
    assert_eq!(get_u32(&file, 0x1C), 100);
    assert_eq!(get_u32(&file, 0x3C), 232);
    check(&file, &vanilla_events(&[]));
}

#[test]
fn cars_before_instances_are_reported_first() {
    let file = fixture("cars first");
    let mut expected = vec![Ev::bnry_file(3, 2)];
    expected.extend(samples_car(2).into_iter().map(Ev::Car));
    expected.extend(samples_inst(3).into_iter().map(Ev::Instance));
    expected.push(Ev::End);
    check(&file, &expected);
    // Read front to back: no seek needed.
    assert!(drive(&file, &whole, Options::default(), false)
        .seeks
        .is_empty());
    assert_eq!(
        drive(&file, &whole, no_seek(), false).events,
        expected,
        "a caller that cannot seek reads it too"
    );
}

#[test]
fn empty_files_ignore_garbage_offsets() {
    let file = fixture("empty");
    assert_eq!(file.len(), 76);
    assert_eq!(get_u32(&file, 0x1C), 0xDEAD_BEEF);
    check(&file, &[Ev::bnry_file(0, 0), Ev::End]);
    check(&fixture("empty padded"), &[Ev::bnry_file(0, 0), Ev::End]);
    check(
        &fixture("empty with trailing data"),
        &[
            Ev::bnry_file(0, 0),
            Ev::Warning(WarningKind::TrailingData, 76 + 3),
            Ev::End,
        ],
    );
}

#[test]
fn an_offset_counts_only_with_records() {
    // Instances only, the car offset pointing into the header; cars only, the instance offset
    // far beyond the file: both read as if the other offset were not there.
    let mut expected = vec![Ev::bnry_file(3, 0)];
    expected.extend(samples_inst(3).into_iter().map(Ev::Instance));
    expected.push(Ev::End);
    check(&fixture("instances only, garbage car offset"), &expected);

    let mut expected = vec![Ev::bnry_file(0, 2)];
    expected.extend(samples_car(2).into_iter().map(Ev::Car));
    expected.push(Ev::End);
    check(&fixture("cars only, garbage instance offset"), &expected);
}

#[test]
fn trailing_data_warns_once_at_the_first_non_zero_byte() {
    // Vanilla (292 bytes), zeros to 300, then "\x01stale" and zeros.
    check(
        &fixture("trailing data after zeros"),
        &vanilla_events(&[])
            .into_iter()
            .flat_map(|e| match e {
                Ev::End => vec![Ev::Warning(WarningKind::TrailingData, 300), Ev::End],
                e => vec![e],
            })
            .collect::<Vec<_>>(),
    );
    // Right after the content.
    let file = cat(&[&vanilla(), &[5, 0, 6]]);
    let mut expected = vanilla_events(&[]);
    expected.insert(
        expected.len() - 1,
        Ev::Warning(WarningKind::TrailingData, 292),
    );
    check(&file, &expected);
}

// ---- Aborts ----------------------------------------------------------------------------------

/// Aborts at its record event of index `at` (from 0).
struct AbortAtRecord {
    at: usize,
    records: usize,
}

impl Visitor for AbortAtRecord {
    fn record(&mut self, _: &Record<'_>) -> Flow {
        self.records += 1;
        if self.records > self.at {
            Flow::Abort
        } else {
            Flow::Continue
        }
    }
}

/// The error of a decode fed in `pieces` whose visitor aborts at record `at`, and the records
/// it saw.
fn abort_at_record(pieces: &[&[u8]], at: usize) -> (gtastream::Error, usize) {
    let mut decoder = Decoder::new();
    let mut visitor = AbortAtRecord { at, records: 0 };
    for piece in pieces {
        if let Err(error) = decoder.feed(piece, &mut visitor) {
            return (error, visitor.records);
        }
    }
    let error = decoder.finish(&mut visitor).unwrap_err();
    (error, visitor.records)
}

#[test]
fn an_abort_at_a_record_stops_at_that_record_however_the_input_is_cut() {
    // Instances at 76, 116 and 156 (40 bytes each), cars at 196 and 244 (48 bytes each): whole
    // records are taken in one loop, cut ones through the carry buffer; both stop at the record.
    let file = bnry(&samples_inst(3), 76, &samples_car(2), 196);
    assert_eq!(file.len(), 292);
    for (at, offset) in [76, 116, 156, 196, 244].into_iter().enumerate() {
        let mut cuts: Vec<Vec<&[u8]>> = vec![
            vec![&file],
            file.chunks(1).collect(),
            file.chunks(40).collect(),
            file.chunks(64).collect(),
        ];
        cuts.extend((1..file.len()).map(|cut| vec![&file[..cut], &file[cut..]]));
        for pieces in &cuts {
            let (error, records) = abort_at_record(pieces, at);
            assert_eq!(
                (error.kind, error.offset, records),
                (ErrorKind::Aborted, offset, at + 1),
                "abort at record {at}, pieces of {:?} bytes",
                pieces.iter().map(|p| p.len()).collect::<Vec<_>>()
            );
        }
    }
}

// ---- Seeking ---------------------------------------------------------------------------------

#[test]
fn a_section_behind_the_previous_one_needs_a_seek() {
    // Three instances at 76..196; one car at 100, inside them.
    let file = fixture("overlapping: cars inside the instances");
    assert_eq!(file.len(), 196);
    let mut decoder = Decoder::new();
    let mut rec = Recorder::default();
    assert_eq!(
        decoder.feed(&file, &mut rec),
        Ok(Progress {
            consumed: 196,
            status: Status::Seek(100)
        })
    );
    assert_eq!(decoder.position(), 100);
    assert_eq!(rec.events.len(), 4, "file and three instances");
    assert_eq!(
        decoder.feed(&file[100..], &mut rec),
        Ok(Progress {
            consumed: 96,
            status: Status::Done
        })
    );
    assert_eq!(decoder.finish(&mut rec), Ok(()));
    let log = rec.events;
    assert_eq!(log.len(), 6);
    assert_eq!(log[0], Ev::bnry_file(3, 1));
    // The car was written last: its bytes, and the third instance's, are intact.
    assert_eq!(log[3], Ev::Instance(Inst::sample(2)));
    assert_eq!(log[4], Ev::Car(Car::sample(0)));
    assert_eq!(log[5], Ev::End);
    assert_eq!(log, reference(&file).log());
    assert_eq!(log_slice(&file), log);
}

#[test]
fn a_caller_that_cannot_seek_gets_seek_required() {
    let file = fixture("overlapping: cars inside the instances");
    let out = drive(&file, &whole, no_seek(), false);
    assert_eq!(out.events.len(), 5);
    assert_eq!(out.events[0], Ev::bnry_file(3, 1));
    assert_eq!(
        out.events[4],
        Ev::Error(ErrorKind::SeekRequired, 100),
        "{:?}",
        out.events
    );
    assert_eq!(out.events, reference_with(&file, false).log());
}

#[test]
fn a_section_behind_the_header() {
    // One instance at 16: the 40 header bytes 16..56 read as an instance; then a car at 76.
    let file = fixture("instances behind the header");
    let header_as_instance = Inst::binary(
        // 0x10 unknown 3 = 0, 0x14 cars = 1, 0x18 unknown 4 = 0
        [0.0, f32::from_bits(1), 0.0],
        // 0x1C instance offset = 16, 0x20 size 0, 0x24 and 0x28: 0
        [f32::from_bits(16), 0.0, 0.0, 0.0],
        0,
        0,
        0,
    );
    check(
        &file,
        &[
            Ev::bnry_file(1, 1),
            Ev::Instance(header_as_instance),
            Ev::Car(Car::sample(0)),
            Ev::End,
        ],
    );
    assert_eq!(drive(&file, &whole, Options::default(), false).seeks, [16]);
    assert_eq!(
        drive(&file, &whole, no_seek(), false).events,
        [Ev::bnry_file(1, 1), Ev::Error(ErrorKind::SeekRequired, 16)]
    );
}

#[test]
fn sections_at_one_offset() {
    // An instance and a car both at 76 (the car's bytes are in the file): instances first,
    // then back to 76 for the car.
    let file = fixture("both at one offset");
    let log = log(&file);
    assert_eq!(log.len(), 4, "{log:?}");
    assert!(matches!(log[1], Ev::Instance(_)));
    assert_eq!(log[2], Ev::Car(Car::sample(3)));
    assert_eq!(log, reference(&file).log());
    assert_eq!(drive(&file, &whole, Options::default(), false).seeks, [76]);
    let out = drive(&file, &whole, no_seek(), false);
    assert_eq!(out.events[2], Ev::Error(ErrorKind::SeekRequired, 76));
}

#[test]
fn files_read_front_to_back_decode_the_same_without_seeking() {
    for (name, file) in binary_fixtures() {
        if reference(&file).seeks {
            continue;
        }
        assert_eq!(
            drive(&file, &whole, no_seek(), false).events,
            log(&file),
            "{name}"
        );
    }
}

// ---- Counts too large ------------------------------------------------------------------------

#[test]
fn counts_too_large_for_4_gib() {
    let header = |n_inst: u32, inst_at: u32, n_car: u32, car_at: u32| {
        let mut b = bnry(&[], 0, &[], 0);
        put_u32(&mut b, 0x04, n_inst);
        put_u32(&mut b, 0x1C, inst_at);
        put_u32(&mut b, 0x14, n_car);
        put_u32(&mut b, 0x3C, car_at);
        b
    };
    let too_large = |at| vec![Ev::Error(ErrorKind::CountTooLarge, at)];
    let cases: [(Vec<u8>, Vec<Ev>); 10] = [
        // 76 + 107374181 × 40 = 2^32 + 20.
        (header(107_374_181, 76, 0, 0), too_large(0x04)),
        // 76 + 107374180 × 40 = 2^32 - 20: fits, the first record is missing.
        (
            header(107_374_180, 76, 0, 0),
            vec![
                Ev::bnry_file(107_374_180, 0),
                Ev::Error(ErrorKind::Truncated, 76),
            ],
        ),
        // One instance ending exactly at 4 GiB fits; one byte further does not.
        (
            header(1, 0xFFFF_FFD8, 0, 0),
            vec![
                Ev::bnry_file(1, 0),
                Ev::Error(ErrorKind::Truncated, 0xFFFF_FFD8),
            ],
        ),
        (header(1, 0xFFFF_FFD9, 0, 0), too_large(0x04)),
        // 76 + 89478484 × 48 = 2^32 + 12.
        (header(0, 0, 89_478_484, 76), too_large(0x14)),
        (
            header(0, 0, 89_478_483, 76),
            vec![
                Ev::bnry_file(0, 89_478_483),
                Ev::Error(ErrorKind::Truncated, 76),
            ],
        ),
        (header(u32::MAX, 76, u32::MAX, 76), too_large(0x04)),
        (header(0, 0, u32::MAX, 0), too_large(0x14)),
        // Offsets without records are never used, however large.
        (
            header(0, u32::MAX, 0, u32::MAX),
            vec![Ev::bnry_file(0, 0), Ev::End],
        ),
        (fixture("count too large"), too_large(0x14)),
    ];
    for (file, expected) in cases {
        check(&file, &expected);
    }
}

#[test]
fn a_count_too_large_fails_the_header_before_its_warnings() {
    let mut file = fixture("count too large");
    put_u32(&mut file, 0x08, 1);
    put_u32(&mut file, 0x20, 3);
    check(&file, &[Ev::Error(ErrorKind::CountTooLarge, 0x14)]);
}

#[test]
fn a_huge_count_that_fits_is_truncated_at_the_first_missing_record() {
    // 3 + 2^24 instances declared, 3 present.
    let file = fixture("huge count that fits");
    let mut expected = vec![
        Ev::Warning(WarningKind::SizeMismatch, 0x20),
        Ev::bnry_file(3 + (1 << 24), 0),
    ];
    expected.extend(samples_inst(3).into_iter().map(Ev::Instance));
    expected.push(Ev::Error(ErrorKind::Truncated, 76 + 120));
    check(&file, &expected);
}

// ---- Sniffing --------------------------------------------------------------------------------

#[test]
fn sniffing() {
    let text_file = |rest: &[Ev]| {
        let mut v = vec![Ev::text_file()];
        v.extend_from_slice(rest);
        v
    };
    let outside = Ev::Warning(WarningKind::LineOutsideSection, 0);
    let cases: Vec<(Vec<u8>, Vec<Ev>)> = vec![
        (b"".to_vec(), vec![Ev::Error(ErrorKind::Empty, 0)]),
        // The binary magic alone: its header is missing.
        (b"bnry".to_vec(), vec![Ev::Error(ErrorKind::Truncated, 0)]),
        (
            padded(b"bnry".to_vec(), 76),
            vec![Ev::bnry_file(0, 0), Ev::End],
        ),
        // Cut inside a binary magic: a binary file cut short.
        (b"b".to_vec(), vec![Ev::Error(ErrorKind::Truncated, 0)]),
        (b"bn".to_vec(), vec![Ev::Error(ErrorKind::Truncated, 0)]),
        (b"bnr".to_vec(), vec![Ev::Error(ErrorKind::Truncated, 0)]),
        (b"AN".to_vec(), vec![Ev::Error(ErrorKind::Truncated, 0)]),
        (b"min".to_vec(), vec![Ev::Error(ErrorKind::Truncated, 0)]),
        // A byte that is neither printable nor a line break among the first four: no format.
        (b"bnr\0".to_vec(), vec![Ev::Error(ErrorKind::BadMagic, 0)]),
        (b"\0nry".to_vec(), vec![Ev::Error(ErrorKind::BadMagic, 0)]),
        (
            b"ins\x7f\n".to_vec(),
            vec![Ev::Error(ErrorKind::BadMagic, 0)],
        ),
        (
            b"\x0binst\n".to_vec(),
            vec![Ev::Error(ErrorKind::BadMagic, 0)],
        ),
        (
            b"\xef\xbb\xbfinst\n".to_vec(),
            vec![Ev::Error(ErrorKind::BadMagic, 0)],
        ),
        (b"\x80".to_vec(), vec![Ev::Error(ErrorKind::BadMagic, 0)]),
        (b"a\x1f".to_vec(), vec![Ev::Error(ErrorKind::BadMagic, 0)]),
    ];
    // Printable first bytes that start no binary magic: text. Without text IPL built in, every
    // one is the `Unsupported` error.
    let text_cases: Vec<(Vec<u8>, Vec<Ev>)> = vec![
        // Shorter than a magic, printable, and no magic's start: text, but no placement file
        // (no section keyword, no record).
        (b"b!".to_vec(), vec![Ev::Error(ErrorKind::BadMagic, 0)]),
        (b"a b".to_vec(), vec![Ev::Error(ErrorKind::BadMagic, 0)]),
        (b"C\n".to_vec(), vec![Ev::Error(ErrorKind::BadMagic, 0)]),
        // Case matters: printable, so text.
        (b"BNRY\n".to_vec(), vec![Ev::Error(ErrorKind::BadMagic, 0)]),
        (
            b"BNRY\ncull\nend".to_vec(),
            text_file(&[outside.clone(), Ev::End]),
        ),
        (b"\t\r\n ".to_vec(), text_file(&[Ev::End])),
        (b"~".to_vec(), vec![Ev::Error(ErrorKind::BadMagic, 0)]),
        (b"#".to_vec(), text_file(&[Ev::End])),
    ];
    for (file, expected) in cases {
        check(&file, &expected);
        assert_eq!(log_bytewise(&file), expected, "{file:?} byte by byte");
    }
    for (file, expected) in text_cases {
        if cfg!(feature = "ipl-text") {
            check(&file, &expected);
            assert_eq!(log_bytewise(&file), expected, "{file:?} byte by byte");
        } else {
            let unsupported = vec![Ev::Error(ErrorKind::Unsupported, 0)];
            assert_eq!(log(&file), unsupported, "{file:?}");
            assert_eq!(log_bytewise(&file), unsupported, "{file:?} byte by byte");
        }
    }
}

#[test]
fn line_numbers_are_for_text_files_only() {
    assert_eq!(
        drive(&vanilla(), &whole, Options::default(), false).line,
        None
    );
}

#[test]
fn every_binary_fixture_matches_the_reference_decoder() {
    for (name, file) in binary_fixtures() {
        let expected = reference(&file).log();
        assert_eq!(log(&file), expected, "{name}");
        assert_eq!(log_slice(&file), expected, "{name}: decode_slice");
        assert_eq!(
            drive(&file, &whole, no_seek(), false).events,
            reference_with(&file, false).log(),
            "{name}: without seeking"
        );
    }
}

//! IMG archives (issue 12): archives of both versions built in code, holding every format,
//! junk, out-of-order data and every oddity of the directory; each decoded entry's events
//! equal those of decoding the extracted entry; the same events for every cut of the input.
#![cfg(feature = "std")]

#[path = "../../benches/inputs/mod.rs"]
mod inputs;

use gtastream::archive::{
    ArchiveDecoder, ArchiveVersion, ArchiveVisitor, ArchiveWarningKind, Choice, Entry,
};
use gtastream::{BoneInfo, Decoder, Error, ErrorKind, Flow, Format, Options, Visitor};
use testkit::img::{feed_in_pieces, name, Img, Record, SECTOR};
use testkit::log::{Ev, Policy, Recorder};

/// Decodes with `decode_slices`; the log and the archive's result.
fn run(
    archive: ArchiveDecoder,
    dir: &[u8],
    data: &[u8],
    choose: fn(&Entry<'_>) -> Choice,
) -> (Vec<Ev>, Result<(), Error>) {
    let mut log = Recorder::default().choosing(choose);
    let mut archive = archive;
    let result = archive.decode_slices(dir, data, &mut log);
    (log.events, result)
}

/// [`run`] on a version 2 archive.
fn run_v2(data: &[u8], choose: fn(&Entry<'_>) -> Choice) -> (Vec<Ev>, Result<(), Error>) {
    run(ArchiveDecoder::new(data.len() as u64), &[], data, choose)
}

/// [`run_chunked`] on a version 2 archive.
fn run_v2_chunked(data: &[u8], log: Recorder, chunk: usize) -> (Vec<Ev>, Result<(), Error>) {
    run_chunked(
        ArchiveDecoder::new(data.len() as u64),
        &[],
        data,
        log,
        chunk,
    )
}

/// Feeds the archive in pieces of `chunk` bytes; the log and the archive's result.
fn run_chunked(
    mut archive: ArchiveDecoder,
    dir: &[u8],
    data: &[u8],
    log: Recorder,
    chunk: usize,
) -> (Vec<Ev>, Result<(), Error>) {
    let mut log = log;
    let result = feed_in_pieces(&mut archive, dir, data, chunk, &mut log);
    (log.events, result)
}

fn decode_all(_: &Entry<'_>) -> Choice {
    Choice::Decode
}

fn skip_all(_: &Entry<'_>) -> Choice {
    Choice::Skip
}

fn decode_known(entry: &Entry<'_>) -> Choice {
    if entry.format.is_some() {
        Choice::Decode
    } else {
        Choice::Skip
    }
}

/// What decoding the extracted entry gives.
fn extracted(bytes: &[u8]) -> (Vec<Ev>, Result<(), Error>) {
    let mut log = Recorder::default();
    let result = Decoder::new().decode_slice(bytes, &mut log);
    (log.events, result)
}

/// One file of every format, and what each is called.
fn every_format() -> Vec<(&'static str, Vec<u8>, Format)> {
    vec![
        ("walk.ifp", inputs::anp3(3000, 1).bytes, Format::Anp3),
        ("ped.ifp", inputs::anpk(5000, 2).bytes, Format::Anpk),
        ("clip.anim", inputs::stories(4000, 3).bytes, Format::Anim),
        (
            "city_stream0.ipl",
            inputs::ipl_binary(2500, 4).bytes,
            Format::IplBinary,
        ),
        (
            "city.ipl",
            sector_sized(inputs::ipl_text(3000, 5).bytes),
            Format::IplText,
        ),
    ]
}

/// A text file filled with blank lines to a whole number of sectors: the text decoder reads
/// zero padding as one long line (a `Limit` error; see docs/RUST.md, "Archives").
fn sector_sized(mut text: Vec<u8>) -> Vec<u8> {
    text.resize(text.len().div_ceil(SECTOR) * SECTOR, b'\n');
    text
}

/// Every format, junk, an empty entry, data out of directory order and a broken entry.
fn mixed() -> Img {
    // Data in reverse order of the records.
    let files: Vec<(&str, Vec<u8>)> = every_format()
        .into_iter()
        .map(|(entry, bytes, _)| (entry, bytes))
        .collect();
    let mut img = Img::reversed(&files);
    // A model (not decoded), junk, a broken package, then a good one after it.
    let mut model = vec![0x10, 0, 0, 0, 0x40, 0, 0, 0];
    model.extend(std::iter::repeat_n(0xAB, 100));
    img.add("car.dff", &model);
    img.add("junk.bin", &[0xFF; 300]);
    let mut broken = inputs::anp3(3000, 6).bytes;
    broken.truncate(200);
    broken[40] = 0xFF;
    broken[41] = 0xFF;
    broken[42] = 0xFF;
    broken[43] = 0x7F;
    img.add("broken.ifp", &broken);
    img.add("after.ifp", &inputs::anp3(2500, 7).bytes);
    img
}

#[test]
fn entries_decode_as_the_extracted_files() {
    let img = mixed();
    let data = img.v2();
    let (log, result) = run_v2(&data, decode_all);
    result.unwrap();
    assert_eq!(log[0], archive_event(ArchiveVersion::V2, img.records.len()));
    // Split the log at the entry events, and compare each part with the extracted entry.
    let mut parts: Vec<Vec<Ev>> = Vec::new();
    for ev in &log[1..] {
        if matches!(ev, Ev::Entry { .. }) {
            parts.push(vec![ev.clone()]);
        } else {
            parts.last_mut().unwrap().push(ev.clone());
        }
    }
    assert_eq!(parts.len(), img.records.len());
    let mut failed = 0;
    for (record, part) in img.records.iter().zip(&parts) {
        let start = record.offset as usize * SECTOR;
        let bytes = &data[start..start + record.size as usize * SECTOR];
        let (expected, result) = extracted(bytes);
        failed += usize::from(result.is_err());
        assert_eq!(part.last().unwrap(), &Ev::EntryEnd(result));
        assert_eq!(&part[1..part.len() - 1], &expected[..], "{}", part[0]);
    }
    // The junk, the model and the broken package fail; the rest decode.
    let summary: Vec<String> = log
        .iter()
        .filter(|e| matches!(e, Ev::Entry { .. } | Ev::EntryEnd(_)))
        .map(Ev::to_string)
        .collect();
    assert_eq!(failed, 3, "{summary:#?}");
    // Formats sniffed as the decoder finds them; `None` for the model and the junk.
    for ((entry, _, format), part) in every_format().iter().zip(&parts) {
        assert!(
            matches!(&part[0], Ev::Entry { name, format: Some(f), .. }
                if name == entry.as_bytes() && f == format),
            "{}",
            part[0]
        );
    }
    assert!(matches!(&parts[5][0], Ev::Entry { name, format: None, .. } if name == b"car.dff"));
    assert!(matches!(&parts[6][0], Ev::Entry { format: None, .. }));
    // The broken entry does not stop the next.
    assert_eq!(parts[8].last().unwrap(), &Ev::EntryEnd(Ok(())));
}

#[test]
fn every_cut_and_pause_gives_the_same_events() {
    let img = mixed();
    let data = img.v2();
    let (whole, result) = run_v2(&data, decode_all);
    result.unwrap();
    for chunk in [1, 2, 3, 7, 31, 32, 33, 100, 2047, 2048, 4096, 1 << 20] {
        let (log, result) = run_v2_chunked(&data, Recorder::default(), chunk);
        result.unwrap();
        assert_eq!(log, whole, "chunk {chunk}");
    }
    for chunk in [1, 5, 4096] {
        let (log, result) = run_v2_chunked(&data, Recorder::new(Policy::PauseEvery), chunk);
        result.unwrap();
        assert_eq!(log, whole, "paused, chunk {chunk}");
    }
}

#[test]
fn version1_reads_the_dir_and_the_img() {
    let img = mixed();
    let (dir, data) = img.v1();
    let v2 = img.v2();
    let (log1, result) = run(
        ArchiveDecoder::version1(dir.len() as u64, data.len() as u64),
        &dir,
        &data,
        decode_all,
    );
    result.unwrap();
    let (log2, _) = run_v2(&v2, decode_all);
    // Same entries and events; only the version differs (version 1's data has no header,
    // which lies in sector 0, before every entry).
    assert_eq!(
        log1[0],
        archive_event(ArchiveVersion::V1, img.records.len())
    );
    assert_eq!(log1[1..], log2[1..]);
    for chunk in [1, 32, 100, 4096] {
        let (log, result) = run_chunked(
            ArchiveDecoder::version1(dir.len() as u64, data.len() as u64),
            &dir,
            &data,
            Recorder::default(),
            chunk,
        );
        result.unwrap();
        assert_eq!(log, log1, "chunk {chunk}");
    }
}

#[test]
fn skipped_entries_are_listed_with_their_formats() {
    let img = mixed();
    let data = img.v2();
    let (log, result) = run_v2(&data, skip_all);
    result.unwrap();
    assert_eq!(log.len(), 1 + img.records.len());
    for (i, ((entry, bytes, format), ev)) in every_format().iter().zip(&log[1..]).enumerate() {
        let record = &img.records[i];
        let size = (bytes.len().div_ceil(SECTOR) * SECTOR) as u64;
        let expected = Ev::Entry {
            index: i as u32,
            name: entry.as_bytes().to_vec(),
            offset: (record.offset as usize * SECTOR) as u64,
            size,
            declared_size: size,
            format: Some(*format),
            choice: Choice::Skip,
        };
        assert_eq!(ev, &expected);
    }
}

/// The archive event `version` with `entries` entries.
fn archive_event(version: ArchiveVersion, entries: usize) -> Ev {
    Ev::Archive {
        version,
        entry_count: entries as u32,
    }
}

fn warnings(log: &[Ev]) -> Vec<Ev> {
    log.iter()
        .filter(|e| matches!(e, Ev::ArchiveWarning(..)))
        .cloned()
        .collect()
}

fn entry_ends(log: &[Ev]) -> Vec<&Result<(), Error>> {
    log.iter()
        .filter_map(|e| match e {
            Ev::EntryEnd(result) => Some(result),
            _ => None,
        })
        .collect()
}

#[test]
fn oddities_are_warnings_and_never_stop_the_others() {
    let good = inputs::anp3(2500, 8).bytes;
    let mut img = Img::default();
    img.add("first.ifp", &good);
    // Size 0.
    img.records.push(Record {
        offset: 1,
        size: 0,
        size2: 0,
        name: name("empty.ifp"),
    });
    // Overlapping the first entry, and a duplicate name: read alike, no warning.
    let first = img.records[0].clone();
    img.records.push(first.clone());
    // A name filling its field.
    let mut long = first.clone();
    long.name = *b"abcdefghijklmnopqrstuvwx";
    img.records.push(long);
    // size 0, size2 used.
    let mut second_size = first.clone();
    second_size.size2 = second_size.size as u16;
    second_size.size = 0;
    second_size.name = name("size2.ifp");
    img.records.push(second_size);
    // Overlapping the directory.
    img.records.push(Record {
        offset: 0,
        size: 1,
        size2: 0,
        name: name("dir.ifp"),
    });
    // The last entry's data is placed now, its record comes after the ones past the end.
    img.add("last.ifp", &good);
    let last = img.records.pop().unwrap();
    let data_len = img.data.len() as u32;
    let end_sector = data_len / SECTOR as u32;
    // Partly past the end, and wholly past it.
    img.records.push(Record {
        offset: end_sector - 1,
        size: 4,
        size2: 0,
        name: name("partly.ifp"),
    });
    img.records.push(Record {
        offset: end_sector + 10,
        size: 2,
        size2: 0,
        name: name("beyond.ifp"),
    });
    img.records.push(Record {
        offset: u32::MAX,
        size: u32::from(u16::MAX),
        size2: 0,
        name: name("far.ifp"),
    });
    img.records.push(last);
    let data = img.v2();
    let (log, result) = run_v2(&data, decode_all);
    result.unwrap();
    let warning = |kind, i: u32| Ev::ArchiveWarning(kind, 8 + 32 * u64::from(i), i);
    use ArchiveWarningKind::{EmptyEntry, EntryOverlapsDirectory, EntryPastEnd, UnterminatedName};
    assert_eq!(
        warnings(&log),
        vec![
            warning(EmptyEntry, 1),
            warning(UnterminatedName, 3),
            warning(EntryOverlapsDirectory, 5),
            warning(EntryPastEnd, 6),
            warning(EntryPastEnd, 7),
            warning(EntryPastEnd, 8),
        ]
    );
    let ends = entry_ends(&log);
    assert_eq!(ends.len(), 10);
    // The good entry and its copies decode; the empty one fails as an empty file does.
    let (_, empty) = extracted(&[]);
    assert_eq!(ends[1], &empty);
    for i in [0, 2, 3, 4, 9] {
        assert_eq!(ends[i], &Ok(()), "entry {i}");
    }
    assert!(log
        .iter()
        .any(|e| matches!(e, Ev::Entry { index: 3, name, .. }
        if name == b"abcdefghijklmnopqrstuvwx")));
    // The cut entry holds what the file has: one sector.
    let partly = ((end_sector - 1) as usize * SECTOR) as u64;
    assert!(log.iter().any(|e| matches!(e,
        Ev::Entry { index: 6, name, offset, size: 2048, declared_size: 8192, .. }
        if name == b"partly.ifp" && *offset == partly)));
    assert!(log.iter().any(|e| matches!(e,
        Ev::Entry {
            index: 8,
            name,
            offset: 8796093020160,
            size: 0,
            declared_size: 134215680,
            format: None,
            ..
        } if name == b"far.ifp")));
    // Every cut gives the same.
    for chunk in [1, 13, 2048] {
        let (cut, result) = run_v2_chunked(&data, Recorder::default(), chunk);
        result.unwrap();
        assert_eq!(cut, log, "chunk {chunk}");
    }
}

#[test]
fn a_cut_directory_keeps_its_whole_records() {
    let mut img = Img::default();
    img.add("a.ifp", &inputs::anp3(2500, 9).bytes);
    // Version 2: a count far beyond the file.
    let data = img.v2_count(u32::MAX);
    let (log, result) = run_v2(&data, decode_known);
    result.unwrap();
    let records = (data.len() - 8) / 32;
    assert_eq!(log[0], archive_event(ArchiveVersion::V2, records));
    // The cut record is reported first; the data read as records gives warnings of its own.
    assert_eq!(
        warnings(&log)[0],
        Ev::ArchiveWarning(
            ArchiveWarningKind::DirectoryTruncated,
            8 + 32 * records as u64,
            records as u32
        )
    );
    assert!(log.iter().any(|e| matches!(e,
        Ev::Entry { index: 0, name, choice: Choice::Decode, .. } if name == b"a.ifp")));
    assert_eq!(
        log.iter()
            .skip_while(|e| !matches!(e, Ev::Entry { index: 0, .. }))
            .find(|e| matches!(e, Ev::EntryEnd(_))),
        Some(&Ev::EntryEnd(Ok(())))
    );
    assert_eq!(
        log.iter().filter(|e| matches!(e, Ev::Entry { .. })).count(),
        records
    );
    // Version 1: a .dir with a partial record at its end.
    let (mut dir, data) = img.v1();
    dir.extend_from_slice(&[1, 2, 3]);
    let (log, result) = run(
        ArchiveDecoder::version1(dir.len() as u64, data.len() as u64),
        &dir,
        &data,
        decode_known,
    );
    result.unwrap();
    assert_eq!(
        warnings(&log),
        vec![Ev::ArchiveWarning(
            ArchiveWarningKind::DirectoryTruncated,
            32,
            1
        )]
    );
    assert_eq!(log.last().unwrap(), &Ev::EntryEnd(Ok(())));
}

#[test]
fn archive_errors() {
    // Not an archive.
    let anp3 = inputs::anp3(2500, 10).bytes;
    let (log, result) = run_v2(&anp3, decode_all);
    assert_eq!(
        result,
        Err(Error {
            kind: ErrorKind::BadMagic,
            offset: 0
        })
    );
    assert!(log.is_empty());
    // Shorter than its header.
    let (_, result) = run(ArchiveDecoder::new(5), &[], b"VER2\x01", decode_all);
    assert_eq!(result.unwrap_err().kind, ErrorKind::Truncated);
    // Files shorter than the lengths given: the archive fails, after the entries it read.
    let img = mixed();
    let data = img.v2();
    let (log, result) = run(
        ArchiveDecoder::new(data.len() as u64 + 4096),
        &[],
        &data[..data.len() - 100],
        decode_all,
    );
    assert_eq!(result.unwrap_err().kind, ErrorKind::Truncated);
    assert!(entry_ends(&log).len() >= 5);
    // A visitor that aborts inside an entry stops the archive.
    struct AbortAtBone;
    impl Visitor for AbortAtBone {
        fn bone(&mut self, _: &BoneInfo<'_>) -> Flow {
            Flow::Abort
        }
    }
    impl ArchiveVisitor for AbortAtBone {
        fn entry(&mut self, _: &Entry<'_>) -> Choice {
            Choice::Decode
        }
    }
    let error = ArchiveDecoder::new(data.len() as u64)
        .decode_slice(&data, &mut AbortAtBone)
        .unwrap_err();
    assert_eq!(error.kind, ErrorKind::Aborted);
    assert!(error.offset > img.records[0].offset as u64 * SECTOR as u64);
}

#[test]
fn a_caller_that_cannot_seek_gets_a_clear_error() {
    let img = mixed();
    let data = img.v2();
    let archive = ArchiveDecoder::new(data.len() as u64).with_options(Options {
        can_seek: false,
        ..Options::DEFAULT
    });
    let (log, result) = run_chunked(
        archive,
        &[],
        &data,
        Recorder::default().choosing(skip_all),
        4096,
    );
    let error = result.unwrap_err();
    // The first entry's data lies ahead: read through; coming back to the directory fails.
    assert_eq!(error.kind, ErrorKind::SeekRequired);
    assert_eq!(error.offset, 8 + 32);
    assert_eq!(log.len(), 2);
}

#[test]
fn hostile_directories_end() {
    // Every record pointing at the same large entry: decoding stops once entries cost more
    // than the archive's size many times over, each later entry failing with a limit error.
    let big = inputs::anpk(40_000, 11).bytes;
    let count: usize = 8000;
    // The records first, then the one entry they all name.
    let directory_sectors = (8 + 32 * count).div_ceil(SECTOR);
    let mut img = Img::default();
    img.add_at("big.ifp", directory_sectors as u32, &big);
    let record = img.records[0].clone();
    img.records = vec![record; count];
    let data = img.v2();
    let mut log = Recorder::default();
    let result = ArchiveDecoder::new(data.len() as u64).decode_slice(&data, &mut log);
    result.unwrap();
    let ends = entry_ends(&log.events);
    let limits = ends
        .iter()
        .filter(|r| matches!(r, Err(e) if e.kind == ErrorKind::Limit))
        .count();
    let decoded = ends.iter().filter(|r| r.is_ok()).count();
    assert!(
        limits > 0 && decoded > 0 && limits + decoded == count,
        "{limits} {decoded}"
    );
    assert!(
        (decoded as u64) * big.len().div_ceil(SECTOR) as u64 * SECTOR as u64
            <= 64 * data.len() as u64 + (1 << 20)
    );
}

#[test]
fn io_reader_decodes_archives() {
    use std::io::Cursor;
    let img = mixed();
    let data = img.v2();
    let (expected, _) = run_v2(&data, decode_all);
    let mut reader = Cursor::new(data.clone());
    let len = gtastream::io::stream_len(&mut reader).unwrap();
    let mut log = Recorder::default();
    gtastream::io::decode_archive::<Cursor<Vec<u8>>, _, _>(
        &mut ArchiveDecoder::new(len),
        None,
        &mut reader,
        &mut log,
    )
    .unwrap();
    assert_eq!(log.events, expected);
    let (dir, data1) = img.v1();
    let mut log = Recorder::default();
    gtastream::io::decode_archive(
        &mut ArchiveDecoder::version1(dir.len() as u64, data1.len() as u64),
        Some(&mut Cursor::new(dir)),
        &mut Cursor::new(data1),
        &mut log,
    )
    .unwrap();
    assert_eq!(log.events[1..], expected[1..]);
}

#[test]
fn decode_reader_reads_pipes() {
    use std::io::{Read, Seek, SeekFrom};
    /// A reader whose every seek fails, as a pipe's.
    struct Pipe(std::io::Cursor<Vec<u8>>);
    impl Read for Pipe {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            self.0.read(buf)
        }
    }
    impl Seek for Pipe {
        fn seek(&mut self, _: SeekFrom) -> std::io::Result<u64> {
            Err(std::io::Error::other("illegal seek"))
        }
    }
    let bytes = inputs::anpk(5000, 12).bytes;
    let (expected, _) = extracted(&bytes);
    let mut log = Recorder::default();
    gtastream::io::decode_reader(
        &mut Decoder::new(),
        &mut Pipe(std::io::Cursor::new(bytes)),
        &mut log,
    )
    .unwrap();
    assert_eq!(log.events, expected);
    // A file that needs a seek back fails clearly.
    let stories = inputs::stories(4000, 13).bytes;
    let error = gtastream::io::decode_reader(
        &mut Decoder::new(),
        &mut Pipe(std::io::Cursor::new(stories)),
        &mut Recorder::default(),
    )
    .unwrap_err();
    assert!(
        matches!(
            error,
            gtastream::io::ReadError::Decode(Error {
                kind: ErrorKind::SeekRequired,
                ..
            })
        ),
        "{error}"
    );
}

#[test]
fn text_sniffing_skips_printable_binary_magics() {
    let mut img = Img::default();
    let mut col = b"COLL".to_vec();
    col.extend_from_slice(&1000u32.to_le_bytes());
    col.extend_from_slice(&[0; 64]);
    img.add("x.col", &col);
    img.add("short.ipl", b"end\n");
    img.add("a.ipl", b"inst\nend\n");
    let data = img.v2();
    let (log, _) = run_v2(&data, skip_all);
    let formats: Vec<bool> = log[1..]
        .iter()
        .map(|e| {
            matches!(
                e,
                Ev::Entry {
                    format: Some(Format::IplText),
                    ..
                }
            )
        })
        .collect();
    assert_eq!(formats, [false, true, true]);
}

#[test]
fn warning_kinds_have_distinct_names() {
    let names: std::collections::HashSet<_> =
        ArchiveWarningKind::ALL.iter().map(|k| k.name()).collect();
    assert_eq!(names.len(), ArchiveWarningKind::ALL.len());
    for kind in ArchiveWarningKind::ALL {
        assert!(!kind.reason().is_empty());
    }
}

/// A RenderWare chunk header (id, size, San Andreas library id), then a struct chunk's.
fn renderware(id: u32) -> Vec<u8> {
    [id, 0x400, 0x1803_FFFF, 1, 12, 0x1803_FFFF]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .chain([0x5a; 40])
        .collect()
}

#[test]
fn entries_are_named_by_the_decoders_own_sniffing() {
    // A COL3 file: its magic, size and model name are printable up to the first NUL (the shape
    // once taken for text, which then failed); models, textures, other collision versions.
    let mut col3 = b"COL3\x41\x00\x00\x00lae_house\0\0\0".to_vec();
    col3.extend_from_slice(&[0x80; 60]);
    let mut col2 = b"COL2AAAAlod\0".to_vec();
    col2.extend_from_slice(&[0x01; 60]);
    let entries: Vec<(&str, Vec<u8>, Option<ErrorKind>)> = vec![
        ("lae.col", col3, Some(ErrorKind::CollisionFile)),
        ("lod.col", col2, Some(ErrorKind::CollisionFile)),
        ("car.dff", testkit::dff::gta3_vehicle().bytes(), None),
        (
            "car.txd",
            renderware(0x16),
            Some(ErrorKind::TextureDictionary),
        ),
        ("junk.bin", vec![0xEE; 100], Some(ErrorKind::BadMagic)),
        ("walk.ifp", inputs::anp3(3000, 1).bytes, None),
    ];
    let mut img = Img::default();
    for (name, bytes, _) in &entries {
        img.add(name, bytes);
    }
    let data = img.v2();
    let (log, result) = run(
        ArchiveDecoder::new(data.len() as u64),
        &[],
        &data,
        decode_all,
    );
    assert_eq!(result, Ok(()));
    let formats: Vec<Option<Format>> = log
        .iter()
        .filter_map(|e| match e {
            Ev::Entry { format, .. } => Some(*format),
            _ => None,
        })
        .collect();
    let ends: Vec<Result<(), Error>> = log
        .iter()
        .filter_map(|e| match e {
            Ev::EntryEnd(result) => Some(*result),
            _ => None,
        })
        .collect();
    for (i, (name, bytes, refused)) in entries.iter().enumerate() {
        // What the decoder makes of the extracted file (its sectors, padding included).
        let at = img.records[i].offset as usize * SECTOR;
        let sectors = img.records[i].size as usize * SECTOR;
        let (_, alone) = extracted(&data[at..at + sectors]);
        let refusal = refused.map(|kind| Error { kind, offset: 0 });
        assert_eq!(alone.err(), refusal, "{name}");
        // The entry's format is `None` exactly when the decoder refuses it, and decoding it
        // anyway gives the same error.
        assert_eq!(formats[i].is_some(), refused.is_none(), "{name}");
        assert_eq!(ends[i].err(), refusal, "{name}");
        assert!(bytes.len() <= sectors);
    }
    // Listing and decoding what is named: no entry fails.
    let (log, _) = run(
        ArchiveDecoder::new(data.len() as u64),
        &[],
        &data,
        decode_known,
    );
    assert!(
        !log.iter().any(|e| matches!(e, Ev::EntryEnd(Err(_)))),
        "{log:?}"
    );
}

#[test]
fn archives_of_other_tools_and_games_are_named() {
    let mut verf = b"VERF".to_vec();
    verf.extend_from_slice(&[0x3C, 0x9F, 0x11, 0x02, 0xA7, 0x5E]);
    verf.resize(SECTOR, 0x11);
    let mut gta4 = vec![0x52, 0x2A, 0x4E, 0xA9, 3, 0, 0, 0, 2, 0, 0, 0];
    gta4.resize(SECTOR, 0);
    for (file, kind) in [(verf, ErrorKind::Fastman92Img), (gta4, ErrorKind::Gta4Img)] {
        let (log, result) = run(
            ArchiveDecoder::new(file.len() as u64),
            &[],
            &file,
            decode_all,
        );
        assert_eq!(result, Err(Error { kind, offset: 0 }));
        assert!(log.is_empty());
        assert!(kind.reason().contains("not supported"), "{}", kind.reason());
    }
}

/// `decoded_format` gives the decoder's answer: the directory's sniffed `text` stands for a
/// placement file only; other text (a readme) is no format, as decoding it says (`bad_magic`);
/// text whose start `head` does not settle stays text; binary formats keep their magic's name.
#[test]
fn decoded_format_settles_text_as_the_decoder_does() {
    use gtastream::archive::{decoded_format, FORMAT_HEAD_SIZE};
    let readme = b"hello there\nthis archive holds my mod\n".as_slice();
    let placement = b"# map\ninst\n1, box, 0, 1, 2, 3, 1, 1, 1, 0, 0, 0, 1\nend\n".as_slice();
    // Listed from its first bytes, a readme is text ...
    let data = Img::reversed(&[("readme.txt", readme.to_vec())]).v2();
    let (log, result) = run_v2(&data, skip_all);
    result.unwrap();
    assert!(
        matches!(
            &log[1],
            Ev::Entry {
                format: Some(Format::IplText),
                ..
            }
        ),
        "{log:?}"
    );
    // ... and the decoder refuses it.
    let mut recorder = Recorder::default();
    let refused = Decoder::new().decode_slice(readme, &mut recorder);
    assert_eq!(refused.unwrap_err().kind, ErrorKind::BadMagic);
    assert_eq!(decoded_format(readme, true), None);
    assert_eq!(decoded_format(placement, true), Some(Format::IplText));
    assert_eq!(
        decoded_format(&placement[..20], false),
        Some(Format::IplText)
    );
    // Eight stray lines settle it without the end of the entry.
    let strays = "word word\n".repeat(9);
    assert!(strays.len() < FORMAT_HEAD_SIZE);
    assert_eq!(decoded_format(strays.as_bytes(), false), None);
    // Not yet settled (two strays, more may follow): still text.
    assert_eq!(
        decoded_format(&strays.as_bytes()[..20], false),
        Some(Format::IplText)
    );
    let anp3 = inputs::anp3(3000, 1).bytes;
    assert_eq!(decoded_format(&anp3[..12], false), Some(Format::Anp3));
    assert_eq!(decoded_format(&[0xEE; 64], true), None);
}

//! IMG archives (issue 12): archives of both versions built in code, holding every format,
//! junk, out-of-order data and every oddity of the directory; each decoded entry's events
//! equal those of decoding the extracted entry; the same events for every cut of the input.
#![cfg(feature = "std")]

#[path = "../../benches/inputs/mod.rs"]
mod inputs;

use gtastream::archive::{
    ArchiveDecoder, ArchiveInfo, ArchiveVisitor, ArchiveWarning, ArchiveWarningKind, Choice, Entry,
    Input,
};
use gtastream::{
    AnimationInfo, BoneInfo, Decoder, Error, ErrorKind, FileInfo, Flow, Format, IplCar,
    IplInstance, Keyframes, Options, SectionLine, Status, Visitor, Warning,
};

const SECTOR: usize = 2048;

/// A directory record as written.
#[derive(Clone)]
struct Record {
    offset: u32,
    size: u32,
    /// Version 2's second size field.
    size2: u16,
    name: [u8; 24],
}

fn name(text: &str) -> [u8; 24] {
    let mut field = [0u8; 24];
    field[..text.len()].copy_from_slice(text.as_bytes());
    field
}

/// An archive under construction: records and the data file.
#[derive(Default, Clone)]
struct Img {
    records: Vec<Record>,
    data: Vec<u8>,
}

impl Img {
    /// Puts `bytes` at sector `at` (zero padding to the sector boundary) and records it.
    fn add_at(&mut self, entry: &str, at: u32, bytes: &[u8]) -> &mut Self {
        let sectors = bytes.len().div_ceil(SECTOR);
        let start = at as usize * SECTOR;
        let end = start + sectors * SECTOR;
        if self.data.len() < end {
            self.data.resize(end, 0);
        }
        self.data[start..start + bytes.len()].copy_from_slice(bytes);
        self.records.push(Record {
            offset: at,
            size: sectors as u32,
            size2: 0,
            name: name(entry),
        });
        self
    }

    /// The next free sector after everything placed so far, at least `first`.
    fn next_sector(&self, first: u32) -> u32 {
        (self.data.len().div_ceil(SECTOR) as u32).max(first)
    }

    fn add(&mut self, entry: &str, bytes: &[u8]) -> &mut Self {
        let at = self.next_sector(self.first_data_sector());
        self.add_at(entry, at, bytes)
    }

    /// Room for a version 2 directory of up to 63 records in sector 0.
    fn first_data_sector(&self) -> u32 {
        1
    }

    /// The version 2 file: header and records over the front of the data.
    fn v2(&self) -> Vec<u8> {
        self.v2_count(self.records.len() as u32)
    }

    fn v2_count(&self, count: u32) -> Vec<u8> {
        let mut out = self.data.clone();
        let directory = 8 + 32 * self.records.len();
        if out.len() < directory {
            out.resize(directory, 0);
        }
        out[..4].copy_from_slice(b"VER2");
        out[4..8].copy_from_slice(&count.to_le_bytes());
        for (i, r) in self.records.iter().enumerate() {
            let at = 8 + 32 * i;
            out[at..at + 4].copy_from_slice(&r.offset.to_le_bytes());
            out[at + 4..at + 6].copy_from_slice(&(r.size as u16).to_le_bytes());
            out[at + 6..at + 8].copy_from_slice(&r.size2.to_le_bytes());
            out[at + 8..at + 32].copy_from_slice(&r.name);
        }
        out
    }

    /// The version 1 pair: `.dir` and `.img`.
    fn v1(&self) -> (Vec<u8>, Vec<u8>) {
        let mut dir = Vec::new();
        for r in &self.records {
            dir.extend_from_slice(&r.offset.to_le_bytes());
            dir.extend_from_slice(&r.size.to_le_bytes());
            dir.extend_from_slice(&r.name);
        }
        (dir, self.data.clone())
    }
}

/// Every event as a line; keyframes one per line, so batches cut differently log alike.
#[derive(Default)]
struct Log {
    lines: Vec<String>,
    choose: Option<fn(&Entry<'_>) -> Choice>,
    /// Pause after every event (the log must not change).
    pause: bool,
}

impl Log {
    fn new(choose: fn(&Entry<'_>) -> Choice) -> Self {
        Log {
            choose: Some(choose),
            ..Log::default()
        }
    }

    fn push(&mut self, line: String) -> Flow {
        self.lines.push(line);
        if self.pause {
            Flow::Pause
        } else {
            Flow::Continue
        }
    }
}

impl Visitor for Log {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        self.push(format!("file {:?} {:?}", info.format, info.name))
    }
    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        self.push(format!("animation {} {:?}", info.index, info.name))
    }
    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        self.push(format!("bone {} {:?}", info.index, info.frame_type))
    }
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        let mut flow = Flow::Continue;
        for frame in frames.iter() {
            flow = self.push(format!("keyframe {:?}", frame));
        }
        flow
    }
    fn bone_end(&mut self) -> Flow {
        self.push("bone_end".into())
    }
    fn animation_end(&mut self) -> Flow {
        self.push("animation_end".into())
    }
    fn instance(&mut self, i: &IplInstance<'_>) -> Flow {
        self.push(format!("instance {:?}", i))
    }
    fn car(&mut self, car: &IplCar) -> Flow {
        self.push(format!("car {:?}", car))
    }
    fn section_line(&mut self, line: &SectionLine<'_>) -> Flow {
        self.push(format!("line {:?}", line))
    }
    fn warning(&mut self, warning: Warning) -> Flow {
        self.push(format!("warning {:?} {}", warning.kind, warning.offset))
    }
    fn end(&mut self) -> Flow {
        self.push("end".into())
    }
}

impl ArchiveVisitor for Log {
    fn archive(&mut self, info: &ArchiveInfo) -> Flow {
        self.push(format!("archive {:?} {}", info.version, info.entry_count))
    }
    fn entry(&mut self, entry: &Entry<'_>) -> Choice {
        let choice = self.choose.map_or(Choice::Decode, |f| f(entry));
        self.lines.push(format!(
            "entry {} {:?} {} {} {} {:?} {:?}",
            entry.index,
            String::from_utf8_lossy(entry.name),
            entry.offset,
            entry.size,
            entry.declared_size,
            entry.format,
            choice
        ));
        choice
    }
    fn entry_end(&mut self, result: Result<(), Error>) -> Flow {
        self.push(format!("entry_end {:?}", result))
    }
    fn archive_warning(&mut self, warning: ArchiveWarning) -> Flow {
        self.push(format!(
            "archive_warning {:?} {} {}",
            warning.kind, warning.offset, warning.index
        ))
    }
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

/// Decodes with `decode_slices`; the log and the archive's result.
fn run(
    archive: ArchiveDecoder,
    dir: &[u8],
    data: &[u8],
    choose: fn(&Entry<'_>) -> Choice,
) -> (Vec<String>, Result<(), Error>) {
    let mut log = Log::new(choose);
    let mut archive = archive;
    let result = archive.decode_slices(dir, data, &mut log);
    (log.lines, result)
}

/// Feeds the archive in pieces of `chunk` bytes, following seeks, resuming pauses.
fn run_chunked(
    mut archive: ArchiveDecoder,
    dir: &[u8],
    data: &[u8],
    log: &mut Log,
    chunk: usize,
) -> Result<(), Error> {
    loop {
        let file = match archive.input() {
            Input::Directory => dir,
            Input::Data => data,
        };
        let at = archive.position() as usize;
        let piece = file.get(at..).unwrap_or_default();
        let piece = &piece[..piece.len().min(chunk)];
        if piece.is_empty() {
            return archive.finish(log);
        }
        let mut rest = piece;
        loop {
            let progress = archive.feed(rest, log)?;
            rest = &rest[progress.consumed..];
            match progress.status {
                Status::Paused => continue,
                Status::Done => return archive.finish(log),
                Status::NeedInput | Status::Seek(_) => break,
            }
        }
    }
}

/// What decoding the extracted entry gives.
fn extracted(bytes: &[u8]) -> (Vec<String>, Result<(), Error>) {
    let mut log = Log::default();
    let result = Decoder::new().decode_slice(bytes, &mut log);
    (log.lines, result)
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
    let mut img = Img::default();
    let files = every_format();
    // Data in reverse order of the records: sector of each placed from the back.
    let sizes: Vec<u32> = files
        .iter()
        .map(|(_, b, _)| b.len().div_ceil(SECTOR) as u32)
        .collect();
    let mut at = 1 + sizes.iter().sum::<u32>();
    for ((entry, bytes, _), sectors) in files.iter().zip(&sizes) {
        at -= sectors;
        img.add_at(entry, at, bytes);
    }
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
    let (log, result) = run(
        ArchiveDecoder::new(data.len() as u64),
        &[],
        &data,
        decode_all,
    );
    result.unwrap();
    assert_eq!(log[0], format!("archive V2 {}", img.records.len()));
    // Split the log at the entry events, and compare each part with the extracted entry.
    let mut parts = Vec::new();
    for line in &log[1..] {
        if line.starts_with("entry ") {
            parts.push(vec![line.clone()]);
        } else {
            parts.last_mut().unwrap().push(line.clone());
        }
    }
    assert_eq!(parts.len(), img.records.len());
    let mut failed = 0;
    for (record, part) in img.records.iter().zip(&parts) {
        let start = record.offset as usize * SECTOR;
        let bytes = &data[start..start + record.size as usize * SECTOR];
        let (expected, result) = extracted(bytes);
        let end = format!("entry_end {:?}", result);
        failed += usize::from(result.is_err());
        assert_eq!(part.last().unwrap(), &end);
        assert_eq!(&part[1..part.len() - 1], &expected[..], "{}", part[0]);
    }
    // The junk, the model and the broken package fail; the rest decode.
    let summary: Vec<&String> = log.iter().filter(|l| l.starts_with("entry")).collect();
    assert_eq!(failed, 3, "{summary:#?}");
    // Formats sniffed as the decoder finds them; `None` for the model and the junk.
    for ((entry, _, format), part) in every_format().iter().zip(&parts) {
        assert!(part[0].contains(entry), "{}", part[0]);
        assert!(
            part[0].contains(&format!("Some({format:?})")),
            "{}",
            part[0]
        );
    }
    assert!(parts[5][0].contains("\"car.dff\"") && parts[5][0].contains(" None "));
    assert!(parts[6][0].contains(" None "));
    // The broken entry does not stop the next.
    assert!(parts[8].last().unwrap().ends_with("Ok(())"));
}

#[test]
fn every_cut_and_pause_gives_the_same_events() {
    let img = mixed();
    let data = img.v2();
    let (whole, result) = run(
        ArchiveDecoder::new(data.len() as u64),
        &[],
        &data,
        decode_all,
    );
    result.unwrap();
    for chunk in [1, 2, 3, 7, 31, 32, 33, 100, 2047, 2048, 4096, 1 << 20] {
        let mut log = Log::new(decode_all);
        run_chunked(
            ArchiveDecoder::new(data.len() as u64),
            &[],
            &data,
            &mut log,
            chunk,
        )
        .unwrap();
        assert_eq!(log.lines, whole, "chunk {chunk}");
    }
    for chunk in [1, 5, 4096] {
        let mut log = Log::new(decode_all);
        log.pause = true;
        run_chunked(
            ArchiveDecoder::new(data.len() as u64),
            &[],
            &data,
            &mut log,
            chunk,
        )
        .unwrap();
        assert_eq!(log.lines, whole, "paused, chunk {chunk}");
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
    let (log2, _) = run(ArchiveDecoder::new(v2.len() as u64), &[], &v2, decode_all);
    // Same entries and events; only the version differs (version 1's data has no header,
    // which lies in sector 0, before every entry).
    assert_eq!(log1[0], format!("archive V1 {}", img.records.len()));
    assert_eq!(log1[1..], log2[1..]);
    for chunk in [1, 32, 100, 4096] {
        let mut log = Log::new(decode_all);
        run_chunked(
            ArchiveDecoder::version1(dir.len() as u64, data.len() as u64),
            &dir,
            &data,
            &mut log,
            chunk,
        )
        .unwrap();
        assert_eq!(log.lines, log1, "chunk {chunk}");
    }
}

#[test]
fn skipped_entries_are_listed_with_their_formats() {
    let img = mixed();
    let data = img.v2();
    let (log, result) = run(ArchiveDecoder::new(data.len() as u64), &[], &data, skip_all);
    result.unwrap();
    assert_eq!(log.len(), 1 + img.records.len());
    for (i, ((entry, bytes, format), line)) in every_format().iter().zip(&log[1..]).enumerate() {
        let record = &img.records[i];
        let expected = format!(
            "entry {i} {entry:?} {} {} {} Some({format:?}) Skip",
            record.offset as usize * SECTOR,
            bytes.len().div_ceil(SECTOR) * SECTOR,
            bytes.len().div_ceil(SECTOR) * SECTOR,
        );
        assert_eq!(line, &expected);
    }
}

fn warnings(log: &[String]) -> Vec<String> {
    log.iter()
        .filter(|l| l.starts_with("archive_warning"))
        .cloned()
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
    let (log, result) = run(
        ArchiveDecoder::new(data.len() as u64),
        &[],
        &data,
        decode_all,
    );
    result.unwrap();
    let record = |i: u64| 8 + 32 * i;
    assert_eq!(
        warnings(&log),
        vec![
            format!("archive_warning EmptyEntry {} 1", record(1)),
            format!("archive_warning UnterminatedName {} 3", record(3)),
            format!("archive_warning EntryOverlapsDirectory {} 5", record(5)),
            format!("archive_warning EntryPastEnd {} 6", record(6)),
            format!("archive_warning EntryPastEnd {} 7", record(7)),
            format!("archive_warning EntryPastEnd {} 8", record(8)),
        ]
    );
    let ends: Vec<&String> = log.iter().filter(|l| l.starts_with("entry_end")).collect();
    assert_eq!(ends.len(), 10);
    // The good entry and its copies decode; the empty one fails as an empty file does.
    let (_, empty) = extracted(&[]);
    assert_eq!(ends[1], &format!("entry_end {:?}", empty));
    for i in [0, 2, 3, 4, 9] {
        assert_eq!(ends[i], "entry_end Ok(())", "entry {i}");
    }
    assert!(log
        .iter()
        .any(|l| l.starts_with("entry 3 \"abcdefghijklmnopqrstuvwx\"")));
    // The cut entry holds what the file has: one sector.
    assert!(log.iter().any(|l| l.starts_with(&format!(
        "entry 6 \"partly.ifp\" {} 2048 8192",
        (end_sector - 1) as usize * SECTOR
    ))));
    assert!(log
        .iter()
        .any(|l| l.starts_with("entry 8 \"far.ifp\" 8796093020160 0 134215680 None")));
    // Every cut gives the same.
    for chunk in [1, 13, 2048] {
        let mut cut = Log::new(decode_all);
        run_chunked(
            ArchiveDecoder::new(data.len() as u64),
            &[],
            &data,
            &mut cut,
            chunk,
        )
        .unwrap();
        assert_eq!(cut.lines, log, "chunk {chunk}");
    }
}

#[test]
fn a_cut_directory_keeps_its_whole_records() {
    let mut img = Img::default();
    img.add("a.ifp", &inputs::anp3(2500, 9).bytes);
    // Version 2: a count far beyond the file.
    let data = img.v2_count(u32::MAX);
    let (log, result) = run(
        ArchiveDecoder::new(data.len() as u64),
        &[],
        &data,
        decode_known,
    );
    result.unwrap();
    let records = (data.len() - 8) / 32;
    assert_eq!(log[0], format!("archive V2 {records}"));
    // The cut record is reported first; the data read as records gives warnings of its own.
    assert_eq!(
        warnings(&log)[0],
        format!(
            "archive_warning DirectoryTruncated {} {records}",
            8 + 32 * records
        )
    );
    assert!(log
        .iter()
        .any(|l| l.starts_with("entry 0 \"a.ifp\"") && l.ends_with("Decode")));
    assert_eq!(
        log.iter()
            .skip_while(|l| !l.starts_with("entry 0 "))
            .find(|l| l.starts_with("entry_end")),
        Some(&"entry_end Ok(())".to_string())
    );
    assert_eq!(
        log.iter().filter(|l| l.starts_with("entry ")).count(),
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
        vec!["archive_warning DirectoryTruncated 32 1".to_string()]
    );
    assert_eq!(log.last().unwrap(), "entry_end Ok(())");
}

#[test]
fn archive_errors() {
    // Not an archive.
    let anp3 = inputs::anp3(2500, 10).bytes;
    let (log, result) = run(
        ArchiveDecoder::new(anp3.len() as u64),
        &[],
        &anp3,
        decode_all,
    );
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
    assert!(log.iter().filter(|l| l.starts_with("entry_end")).count() >= 5);
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
    let mut log = Log::new(skip_all);
    let error = run_chunked(archive, &[], &data, &mut log, 4096).unwrap_err();
    // The first entry's data lies ahead: read through; coming back to the directory fails.
    assert_eq!(error.kind, ErrorKind::SeekRequired);
    assert_eq!(error.offset, 8 + 32);
    assert_eq!(log.lines.len(), 2);
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
    let mut log = Log::new(decode_all);
    let result = ArchiveDecoder::new(data.len() as u64).decode_slice(&data, &mut log);
    result.unwrap();
    let limits = log
        .lines
        .iter()
        .filter(|l| l.contains("kind: Limit"))
        .count();
    let decoded = log
        .lines
        .iter()
        .filter(|l| *l == "entry_end Ok(())")
        .count();
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
    let (expected, _) = run(
        ArchiveDecoder::new(data.len() as u64),
        &[],
        &data,
        decode_all,
    );
    let mut reader = Cursor::new(data.clone());
    let len = gtastream::io::stream_len(&mut reader).unwrap();
    let mut log = Log::new(decode_all);
    gtastream::io::decode_archive::<Cursor<Vec<u8>>, _, _>(
        &mut ArchiveDecoder::new(len),
        None,
        &mut reader,
        &mut log,
    )
    .unwrap();
    assert_eq!(log.lines, expected);
    let (dir, data1) = img.v1();
    let mut log = Log::new(decode_all);
    gtastream::io::decode_archive(
        &mut ArchiveDecoder::version1(dir.len() as u64, data1.len() as u64),
        Some(&mut Cursor::new(dir)),
        &mut Cursor::new(data1),
        &mut log,
    )
    .unwrap();
    assert_eq!(log.lines[1..], expected[1..]);
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
    let mut log = Log::default();
    gtastream::io::decode_reader(
        &mut Decoder::new(),
        &mut Pipe(std::io::Cursor::new(bytes)),
        &mut log,
    )
    .unwrap();
    assert_eq!(log.lines, expected);
    // A file that needs a seek back fails clearly.
    let stories = inputs::stories(4000, 13).bytes;
    let error = gtastream::io::decode_reader(
        &mut Decoder::new(),
        &mut Pipe(std::io::Cursor::new(stories)),
        &mut Log::default(),
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
    let (log, _) = run(ArchiveDecoder::new(data.len() as u64), &[], &data, skip_all);
    let formats: Vec<bool> = log[1..]
        .iter()
        .map(|l| l.contains("Some(IplText)"))
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

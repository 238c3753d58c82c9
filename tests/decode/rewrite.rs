//! Writing a file back (docs/FORMATS.md §9.7): decoded and encoded to its own format with
//! nothing edited, every fixture comes out byte for byte — garbage after names, stale sizes,
//! `flags`, trailing bytes and all — through the streaming pipeline however the input is cut,
//! through the reading-ahead pipeline of `convert`, and through `Package`; an edited value
//! changes its own bytes only; `normalise` writes the clean file.

#![cfg(feature = "alloc")]

use gtastream::encode::{self, EncodeOptions, Encoder, Lookahead};
use gtastream::{
    AnimationInfo, BoneInfo, Decoder, FileInfo, Flow, Format, Keyframe, Keyframes, Package, Record,
    Status, Visitor,
};
use testkit::driver::Cut;
use testkit::ifp2::{self, AnimSpec, BoneSpec, FileSpec};

/// Where two files first differ, for a failure's message.
fn first_difference(a: &[u8], b: &[u8]) -> String {
    let at = a.iter().zip(b).position(|(x, y)| x != y);
    format!(
        "lengths {} and {}, first difference at {at:?}",
        a.len(),
        b.len()
    )
}

/// Decodes `data` into an encoder of `format`, fed as `cut` says (seeks followed).
fn rewrite_cut(data: &[u8], format: Format, options: EncodeOptions, cut: &Cut) -> Vec<u8> {
    let mut encoder = Encoder::new(format, Vec::new(), options).unwrap();
    feed(data, cut, &mut encoder);
    assert!(encoder.is_finished(), "{:?}", encoder.error());
    encoder.into_sink()
}

/// Asserts that `data`, decoded into an encoder of `format` (default options) cut each way of
/// `cuts`, comes back byte for byte.
fn assert_written_back(name: &str, data: &[u8], format: Format, cuts: &[Cut]) {
    for cut in cuts {
        let out = rewrite_cut(data, format, EncodeOptions::default(), cut);
        assert!(
            out == data,
            "{name} {cut:?}: {}",
            first_difference(&out, data)
        );
    }
}

/// Feeds all of `data` (after `Done` too: the bytes after the content are events as well).
fn feed(data: &[u8], cut: &Cut, visitor: &mut impl Visitor) {
    let mut decoder = Decoder::new();
    let (mut at, mut turn) = (0, 0);
    while at < data.len() {
        let end = cut.end(at, turn, data.len());
        turn += 1;
        let progress = decoder.feed(&data[at..end], visitor).unwrap();
        match progress.status {
            Status::Seek(to) => at = to as usize,
            _ => at += progress.consumed,
        }
    }
    decoder.finish(visitor).unwrap();
}

fn rewrite(data: &[u8], format: Format) -> Vec<u8> {
    rewrite_cut(data, format, EncodeOptions::default(), &Cut::Whole)
}

fn format_of(data: &[u8]) -> Format {
    match &data[..4] {
        b"ANP3" => Format::Anp3,
        b"ANP2" => Format::Anp2,
        b"ANPK" | b"ANLF" => Format::Anpk,
        _ => Format::IplText,
    }
}

/// IFP2 files with everything an exporter leaves: every fixture, and each again with other
/// bytes after the names' NUL.
fn ifp2_files() -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    for (name, spec) in ifp2::valid_specs().into_iter().chain(ifp2::sloppy_specs()) {
        for fill in [0x00, ifp2::GARBAGE, b'x'] {
            files.push((
                format!("{name} fill {fill:#x}"),
                spec.clone().fill(fill).build(),
            ));
        }
    }
    files
}

#[test]
fn ifp2_files_write_back_byte_for_byte_however_cut() {
    let cuts = [
        Cut::Whole,
        Cut::bytewise(),
        Cut::Chunk(7),
        Cut::Chunk(64),
        Cut::Sizes(vec![0, 3, 1, 40]),
    ];
    for (name, data) in ifp2_files() {
        assert_written_back(&name, &data, format_of(&data), &cuts);
    }
}

/// The pipeline of `gtastream convert`: a second decoder reads one bone ahead.
#[test]
fn ifp2_files_write_back_byte_for_byte_through_lookahead() {
    for (name, data) in ifp2_files() {
        let mut encoder = Encoder::new(format_of(&data), Vec::new(), EncodeOptions::default())
            .expect("an IFP2 encoder");
        let mut lookahead = Lookahead::new(&mut encoder, &data[..]);
        Decoder::new().decode_slice(&data, &mut lookahead).unwrap();
        assert!(encoder.into_sink() == data, "{name}");
    }
}

#[test]
fn ifp2_files_write_back_byte_for_byte_through_package() {
    for (name, data) in ifp2_files() {
        let package = Package::parse(&data).unwrap();
        assert!(encode::write(&package).unwrap() == data, "{name}");
    }
}

/// A file with every oddity, and the same file as a clean writer makes it.
fn odd_and_clean() -> (Vec<u8>, Vec<u8>) {
    let spec = ifp2::anp3_packed();
    let mut odd = spec
        .clone()
        .fill(ifp2::GARBAGE)
        .size(3)
        .trailing(b"\x01junk");
    odd.animations[0] = odd.animations[0].clone().flags(0).frame_data_size(99);
    (odd.build(), spec.fill(0).build())
}

#[test]
fn normalise_writes_the_clean_file() {
    let (odd, clean) = odd_and_clean();
    let options = EncodeOptions::default().with_normalise(true);
    for cut in [Cut::Whole, Cut::bytewise()] {
        assert_eq!(rewrite_cut(&odd, Format::Anp3, options, &cut), clean);
    }
    let mut package = Package::parse(&odd).unwrap();
    package.normalise();
    assert_eq!(encode::write(&package).unwrap(), clean);
    // A clean file is its own rewrite both ways.
    assert_eq!(rewrite(&clean, Format::Anp3), clean);
    assert_eq!(
        rewrite_cut(&clean, Format::Anp3, options, &Cut::Whole),
        clean
    );
}

/// The offsets at which two files of the same length differ.
fn differences(a: &[u8], b: &[u8]) -> Vec<usize> {
    assert_eq!(a.len(), b.len());
    (0..a.len()).filter(|&i| a[i] != b[i]).collect()
}

/// Passes events on to an encoder, changing one of them.
struct Edit<'e, F> {
    encoder: &'e mut Encoder<Vec<u8>>,
    edit: F,
}

/// What an [`Edit`] changes: the first animation or bone name, or keyframe batch.
#[derive(Clone, Copy)]
enum Change {
    Done,
    AnimationName(&'static [u8]),
    BoneName(&'static [u8]),
    FirstRotationX(f32),
    ExtraFrame,
}

impl Visitor for Edit<'_, Change> {
    fn file(&mut self, info: &FileInfo<'_>) -> Flow {
        Visitor::file(self.encoder, info)
    }
    fn animation(&mut self, info: &AnimationInfo<'_>) -> Flow {
        let mut info = *info;
        if let Change::AnimationName(name) = self.edit {
            info.name = name;
            self.edit = Change::Done;
        }
        Visitor::animation(self.encoder, &info)
    }
    fn bone(&mut self, info: &BoneInfo<'_>) -> Flow {
        let mut info = *info;
        if let Change::BoneName(name) = self.edit {
            info.name = Some(name);
            self.edit = Change::Done;
        }
        Visitor::bone(self.encoder, &info)
    }
    fn keyframes(&mut self, frames: Keyframes<'_>) -> Flow {
        let mut frames: Vec<Keyframe> = frames.iter().collect();
        match self.edit {
            Change::FirstRotationX(x) => {
                frames[0].rotation[0] = x;
                self.edit = Change::Done;
            }
            Change::ExtraFrame => {
                frames.push(frames[0]);
                self.edit = Change::Done;
            }
            _ => {}
        }
        let result = frames.iter().try_for_each(|f| self.encoder.keyframe(f));
        encode_flow(result)
    }
    fn bone_end(&mut self) -> Flow {
        Visitor::bone_end(self.encoder)
    }
    fn animation_end(&mut self) -> Flow {
        Visitor::animation_end(self.encoder)
    }
    fn trailing(&mut self, bytes: &[u8]) -> Flow {
        Visitor::trailing(self.encoder, bytes)
    }
    fn end(&mut self) -> Flow {
        Visitor::end(self.encoder)
    }
}

fn encode_flow(result: Result<(), encode::EncodeError>) -> Flow {
    match result {
        Ok(()) => Flow::Continue,
        Err(_) => Flow::Abort,
    }
}

fn edited(data: &[u8], change: Change) -> Vec<u8> {
    let mut encoder = Encoder::new(format_of(data), Vec::new(), EncodeOptions::default()).unwrap();
    let mut edit = Edit {
        encoder: &mut encoder,
        edit: change,
    };
    Decoder::new().decode_slice(data, &mut edit).unwrap();
    assert!(encoder.is_finished(), "{:?}", encoder.error());
    encoder.into_sink()
}

#[test]
fn an_edited_value_changes_only_its_own_bytes() {
    let (odd, _) = odd_and_clean();
    // Layout: file header 36, animation header 36 (name at 36), bone header at 72 (name),
    // the first frame's rotation x at 108 (packed: an i16).
    let renamed = edited(&odd, Change::AnimationName(b"walk"));
    let field: Vec<usize> = (36..60).collect();
    let changed = differences(&odd, &renamed);
    assert!(!changed.is_empty() && changed.iter().all(|i| field.contains(i)));
    assert_eq!(
        &renamed[36..60],
        b"walk\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"
    );

    let renamed = edited(&odd, Change::BoneName(b"Spine"));
    let changed = differences(&odd, &renamed);
    assert!(!changed.is_empty() && changed.iter().all(|i| (72..96).contains(i)));

    let moved = edited(&odd, Change::FirstRotationX(2049.0 / 4096.0));
    assert_eq!(differences(&odd, &moved), [108, 109]);
    assert_eq!(&moved[108..110], &2049i16.to_le_bytes());

    // One more keyframe: the frame count, the animation's frameDataSize and the file size
    // are recomputed; flags and the name tails stay.
    let longer = edited(&odd, Change::ExtraFrame);
    let package = Package::parse(&longer).unwrap();
    let animation = &package.animations[0];
    assert_eq!(animation.bones[0].frames.len(), 4);
    let frame_bytes: usize = animation
        .bones
        .iter()
        .map(|b| b.frames.len() * b.frame_type.size())
        .sum();
    assert_eq!(animation.frame_data_size, Some(frame_bytes as u32));
    assert_eq!(animation.flags, Some(0));
    let content = longer.len() - b"\x01junk".len();
    assert_eq!(
        u32::from_le_bytes(longer[4..8].try_into().unwrap()) as usize,
        content - 8
    );
    assert_eq!(&longer[content..], b"\x01junk");
    assert_eq!(
        &longer[8 + 4..32],
        &odd[8 + 4..32],
        "the package name's tail"
    );
}

/// The stored fields pinned by hand: a stale size, frameDataSize, flags 0 and a garbage tail
/// come back as they were.
#[test]
fn stored_fields_are_written_as_they_were() {
    let mut file = Vec::new();
    file.extend(b"ANP3");
    file.extend(7u32.to_le_bytes()); // stale size
    file.extend(
        b"pkg\0\xAA\xBB\xCC\xDD\xEE\xFF\x11\x22\x33\x44\x55\x66\x77\x88\x99\x00\x01\x02\x03\x04",
    );
    file.extend(1u32.to_le_bytes());
    file.extend(b"a\0garbage here...\0\0\0\0\0\0\0");
    file.extend(1u32.to_le_bytes()); // bones
    file.extend(1234u32.to_le_bytes()); // stale frameDataSize
    file.extend(0u32.to_le_bytes()); // flags 0 though packed
    file.extend(
        b"Root\0\xFE\xFE\xFE\xFE\xFE\xFE\xFE\xFE\xFE\xFE\xFE\xFE\xFE\xFE\xFE\xFE\xFE\xFE\xFE",
    );
    file.extend(3u32.to_le_bytes()); // packed rotation
    file.extend(1u32.to_le_bytes()); // one frame
    file.extend(0i32.to_le_bytes());
    file.extend([0, 0, 0, 0, 0, 0, 0, 0x10, 0, 0]);
    file.extend(b"\0\0tail");
    assert_eq!(rewrite(&file, Format::Anp3), file);
    let clean = rewrite_cut(
        &file,
        Format::Anp3,
        EncodeOptions::default().with_normalise(true),
        &Cut::Whole,
    );
    assert_eq!(&clean[4..8], &((clean.len() - 8) as u32).to_le_bytes());
    assert_eq!(
        &clean[8..32],
        b"pkg\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"
    );
    assert_eq!(&clean[64..72], &[10, 0, 0, 0, 1, 0, 0, 0]);
    assert_eq!(clean.len(), file.len() - 6);
}

/// Converting to another format keeps nothing of the source's stored bytes.
#[test]
fn another_format_is_written_clean() {
    let spec = FileSpec::anp3(
        "p",
        vec![AnimSpec::new(
            "a",
            vec![BoneSpec::new(
                "b",
                3,
                2,
                vec![ifp2::p3([0, 0, 0, ifp2::ONE], 0)],
            )],
        )
        .flags(0)],
    );
    let anp2 = rewrite(&spec.clone().fill(ifp2::GARBAGE).build(), Format::Anp2);
    let clean = rewrite_cut(
        &spec.fill(0).build(),
        Format::Anp2,
        EncodeOptions::default().with_normalise(true),
        &Cut::Whole,
    );
    assert_eq!(anp2, clean);
}

/// ANPK files as real exporters leave them (the kit's fixtures: zero tags, stale sizes, empty
/// keyframe chunks, garbage after names, GTA III's 48-byte `ANIM` link fields, the `INFO`
/// field after each object count, trailing bytes...), and the hand-written ODD file. An `ANLF`
/// is written as one `ANPK` (§9.1), so it is left out.
fn anpk_files() -> Vec<(String, Vec<u8>)> {
    testkit::anpk::fixtures()
        .into_iter()
        .filter(|(name, data)| {
            !name.starts_with("ANLF") && Package::parse(data).is_ok() && &data[..4] == b"ANPK"
        })
        .collect()
}

#[test]
fn anpk_files_write_back_byte_for_byte() {
    let files = anpk_files();
    assert!(files.len() >= 10, "{} files", files.len());
    let cuts = [
        Cut::Whole,
        Cut::bytewise(),
        Cut::Chunk(5),
        Cut::Sizes(vec![0, 2, 64]),
    ];
    for (name, data) in files {
        assert_written_back(&name, &data, Format::Anpk, &cuts);
        let mut encoder = Encoder::new(Format::Anpk, Vec::new(), EncodeOptions::default())
            .expect("an ANPK encoder");
        Decoder::new()
            .decode_slice(&data, &mut Lookahead::new(&mut encoder, &data[..]))
            .unwrap();
        assert!(encoder.into_sink() == data, "{name}: through Lookahead");
        let package = Package::parse(&data).unwrap();
        assert!(
            encode::write(&package).unwrap() == data,
            "{name}: through Package"
        );
    }
}

#[test]
fn anpk_normalise_writes_the_clean_file() {
    let clean = testkit::anpk::bytes(&testkit::anpk::mixed());
    let exported = testkit::anpk::exported();
    assert_ne!(exported, clean);
    let options = EncodeOptions::default().with_normalise(true);
    assert_eq!(
        rewrite_cut(&exported, Format::Anpk, options, &Cut::Whole),
        clean
    );
    let mut package = Package::parse(&exported).unwrap();
    package.normalise();
    assert_eq!(encode::write(&package).unwrap(), clean);
}

#[test]
fn anpk_an_edited_value_changes_only_its_own_bytes() {
    let exported = testkit::anpk::exported();
    let map = testkit::anpk::map(&exported);
    let animation = &map.blocks[0].animations[0];
    let object = &animation.objects[0];
    // A bone renamed to a name of the same length as its own ("Root"): its field only.
    let renamed = edited(&exported, Change::BoneName(b"Tail"));
    let changed = differences(&exported, &renamed);
    let field = object.body as usize..object.body as usize + 28;
    assert!(!changed.is_empty() && changed.iter().all(|i| field.contains(i)));
    assert_eq!(&renamed[field.start..field.start + 5], b"Tail\0");
    assert!(renamed[field.start + 5..field.end].iter().all(|&b| b == 0));
    // A keyframe value: its 4 bytes (ANPK stores −x, floats).
    let moved = edited(&exported, Change::FirstRotationX(0.75));
    let at = object.keyframes.unwrap() as usize + 8;
    assert_eq!(differences(&exported, &moved), [at, at + 1, at + 2, at + 3]);
    assert_eq!(&moved[at..at + 4], &(-0.75f32).to_le_bytes());
    // One more keyframe: the object's counts and sizes follow, the stale last index is
    // recomputed, the rest stays as stored.
    let longer = edited(&exported, Change::ExtraFrame);
    let package = Package::parse(&longer).unwrap();
    let frames = package.animations[0].bones[0].frames.len();
    let body = object.body as usize;
    let u32_at = |d: &[u8], at: usize| u32::from_le_bytes(d[at..at + 4].try_into().unwrap());
    assert_eq!(u32_at(&longer, body + 28) as usize, frames);
    assert_eq!(u32_at(&longer, body + 32), 7);
    assert_eq!(u32_at(&longer, body + 36) as usize, frames - 1);
    // Before the object, only the sizes of the chunks that hold it changed.
    let sizes = [4, animation.dgan as usize + 4, object.cpan as usize + 4];
    let before = differences(&longer[..body], &exported[..body]);
    assert!(!before.is_empty());
    assert!(before
        .iter()
        .all(|i| sizes.iter().any(|s| (s..&(s + 4)).contains(&i))));
}

/// A binary IPL as stock files are laid out (the header, the instances, the cars), with bytes
/// in the header's unknown fields, a stale size and offset of an empty section, and trailing
/// bytes: written back byte for byte, and clean with `normalise`.
#[test]
fn bnry_files_write_back_byte_for_byte() {
    use testkit::ipl;
    let mut checked = 0;
    for (name, data) in ipl::binary_fixtures() {
        let Ok(placement) = gtastream::Placement::parse(&data) else {
            continue;
        };
        let u32_at = |at: usize| u32::from_le_bytes(data[at..at + 4].try_into().unwrap());
        let (instances, cars) = (placement.instances.len(), placement.cars.len());
        // The stock layout: each section right after the one before, in the decoder's order.
        let stock = u32_at(0x1C) as usize
            == if instances > 0 {
                76
            } else {
                u32_at(0x1C) as usize
            }
            && (cars == 0 || u32_at(0x3C) as usize == 76 + 40 * instances)
            && data.len() >= 76 + 40 * instances + 48 * cars;
        if !stock || !placement.warnings.is_empty() {
            continue;
        }
        let mut odd = data.clone();
        for at in [0x24, 0x28, 0x2C, 0x30, 0x34, 0x38, 0x44, 0x48] {
            odd[at..at + 4].copy_from_slice(&(0xC0DE_0000u32 + at as u32).to_le_bytes());
        }
        odd.extend_from_slice(b"\x00\x07stale");
        for file in [&data, &odd] {
            let cuts = [Cut::Whole, Cut::bytewise(), Cut::Chunk(13)];
            assert_written_back(&name, file, Format::IplBinary, &cuts);
        }
        let clean = rewrite_cut(
            &odd,
            Format::IplBinary,
            EncodeOptions::default().with_normalise(true),
            &Cut::Whole,
        );
        assert_eq!(clean.len(), 76 + 40 * instances + 48 * cars, "{name}");
        assert!(clean[0x24..0x3C].iter().all(|&b| b == 0), "{name}");
        checked += 1;
    }
    assert!(checked >= 2, "{checked}");
}

/// A Vice City text IPL as real ones are: a header comment, CRLF line ends, tabs, an upper-case
/// keyword and `END`, numbers spelt `1.50`, `-0`, `1e3`, a trailing comment, a lone CR inside a
/// line, blank lines, a line before any section, a mod's `wanted` section, a last line without
/// a line break, then the NULs and junk of an archive entry's sector.
#[cfg(feature = "ipl-text")]
fn vice_city_as_found() -> Vec<u8> {
    let lines: &[&[u8]] = &[
        b"# IPL generated by some exporter\r\n",
        b"made with MapTool 2.1\r\n",
        b"\r\n",
        b"INST\r\n",
        b"4, vc_obj, 2, 10.50, -0, 1e3, 1, 1.5, 2, 0, 0, 0, 1\r\n",
        b"5,\tvc_tab,\t0,\t-1.5,\t2.5E1,\t3,\t1,\t1,\t1,\t0,\t0,\t0.5,\t0.8660254 # note\r\n",
        b"  6 , spaced , 0 , 1 , 2 , 3 , 1 , 1 , 1 , 0 , 0 , 0 , 1\r\r\n",
        b"\t\r\n",
        b"END\r\n",
        b"wanted\r\n",
        b"3, 2\r\n",
        b"\t1\t2\r\n",
        b"end\r\n",
        b"cull\r\n",
        b"  1.0, 2.0, 3.0,  4, 5  \r\n",
        b"endcull",
    ];
    let mut file = lines.concat();
    file.extend_from_slice(&[0; 9]);
    file.extend_from_slice(b"junk\x00\x01");
    file
}

/// A GTA III file: 12-field lines, a comment line between them, LF.
#[cfg(feature = "ipl-text")]
fn gta_iii_as_found() -> Vec<u8> {
    b"# gta3\ninst\n5, iii_obj, 100.5, -200.25, 7, 2, 2, 2, 0, 0, 1, 0\n\
      # moved by hand\n6 iii_two 1 2 3 1 1 1 0 0 0 1\nend\ncull\n1 2 3\nend\n"
        .to_vec()
}

/// A San Andreas file with every section the game knows and a mod's `wanted` section.
#[cfg(feature = "ipl-text")]
fn san_andreas_as_found() -> Vec<u8> {
    let mut file = testkit::ipl::text_all_sections();
    file.extend_from_slice(b"wanted\n3, 2\n\t1\t2\nend\n");
    file
}

/// Text IPLs (every fixture the kit has, and the shapes above) are written back byte for byte
/// however the input is cut: spacing, comments, number spelling, line ends, keyword case,
/// lines outside sections, unknown sections, the last line without a line break, trailing
/// bytes.
#[cfg(feature = "ipl-text")]
#[test]
fn text_files_write_back_byte_for_byte_however_cut() {
    let mut files = testkit::ipl::text_fixtures();
    files.push(("vice city as found".into(), vice_city_as_found()));
    files.push(("gta iii as found".into(), gta_iii_as_found()));
    files.push(("san andreas as found".into(), san_andreas_as_found()));
    let mut checked = 0;
    for (name, data) in files {
        if Decoder::new().decode_slice(&data, &mut Quiet).is_err() {
            continue;
        }
        for cut in [Cut::Whole, Cut::bytewise(), Cut::Chunk(7), Cut::Chunk(64)] {
            let out = rewrite_cut(&data, Format::IplText, EncodeOptions::default(), &cut);
            assert!(
                out == data,
                "{name} {cut:?}: {}\n{:?}",
                first_difference(&out, &data),
                String::from_utf8_lossy(&out)
            );
        }
        checked += 1;
    }
    assert!(checked >= 20, "{checked}");
}

#[cfg(feature = "ipl-text")]
struct Quiet;
#[cfg(feature = "ipl-text")]
impl Visitor for Quiet {}

/// Decodes `data` and writes it back as text with `edit` applied to each instance (by index).
#[cfg(feature = "ipl-text")]
fn text_edited(
    data: &[u8],
    options: EncodeOptions,
    edit: impl Fn(u32, &mut gtastream::IplInstance<'_>),
) -> Vec<u8> {
    struct Edit<'e, F> {
        encoder: &'e mut Encoder<Vec<u8>>,
        edit: F,
        index: u32,
    }
    impl<F: Fn(u32, &mut gtastream::IplInstance<'_>)> Visitor for Edit<'_, F> {
        fn file(&mut self, info: &FileInfo<'_>) -> Flow {
            Visitor::file(self.encoder, info)
        }
        fn record(&mut self, record: &Record<'_>) -> Flow {
            match record {
                Record::Instance(instance) => {
                    let mut instance = *instance;
                    (self.edit)(self.index, &mut instance);
                    self.index += 1;
                    Visitor::record(self.encoder, &Record::Instance(instance))
                }
                record => Visitor::record(self.encoder, record),
            }
        }
        fn text_line(&mut self, raw: &[u8]) -> Flow {
            Visitor::text_line(self.encoder, raw)
        }
        fn warning(&mut self, warning: gtastream::Warning) -> Flow {
            Visitor::warning(self.encoder, warning)
        }
        fn trailing(&mut self, bytes: &[u8]) -> Flow {
            Visitor::trailing(self.encoder, bytes)
        }
        fn end(&mut self) -> Flow {
            Visitor::end(self.encoder)
        }
    }
    let mut encoder = Encoder::new(Format::IplText, Vec::new(), options).unwrap();
    let mut visitor = Edit {
        encoder: &mut encoder,
        edit,
        index: 0,
    };
    Decoder::new().decode_slice(data, &mut visitor).unwrap();
    assert!(encoder.is_finished(), "{:?}", encoder.error());
    encoder.into_sink()
}

/// The lines of a text, with their line breaks.
#[cfg(feature = "ipl-text")]
fn lines_of(data: &[u8]) -> Vec<&[u8]> {
    data.split_inclusive(|&b| b == b'\n').collect()
}

/// An edited instance is written the format's usual way in its place, in the file's layout and
/// with its line's line break; every other line stays as it was, and the file reads back with
/// the new value.
#[cfg(feature = "ipl-text")]
#[test]
fn an_edited_instance_changes_only_its_own_line() {
    for (data, layout_fields) in [
        (vice_city_as_found(), 13),
        (gta_iii_as_found(), 12),
        (san_andreas_as_found(), 11),
    ] {
        let out = text_edited(&data, EncodeOptions::default(), |i, inst| {
            if i == 1 {
                inst.position[0] = 7.25;
            }
        });
        let (before, after) = (lines_of(&data), lines_of(&out));
        assert_eq!(before.len(), after.len());
        let changed: Vec<usize> = (0..before.len())
            .filter(|&i| before[i] != after[i])
            .collect();
        assert_eq!(changed.len(), 1, "{}", String::from_utf8_lossy(&out));
        let (old, new) = (before[changed[0]], after[changed[0]]);
        assert_eq!(old.ends_with(b"\r\n"), new.ends_with(b"\r\n"));
        let fields = testkit::ipl::split_fields(new.trim_ascii());
        assert_eq!(
            fields.len(),
            layout_fields,
            "{}",
            String::from_utf8_lossy(new)
        );
        // Read back: the edit, and nothing else, differs.
        let placement = |bytes: &[u8]| gtastream::Placement::parse(bytes).unwrap();
        let (a, b) = (placement(&data), placement(&out));
        assert_eq!(b.instances[1].position[0], 7.25);
        let mut expected = a.instances.clone();
        expected[1].position[0] = 7.25;
        assert_eq!(b.instances, expected);
        assert_eq!(a.section_lines, b.section_lines);
    }
}

/// A value whose stored spelling reads as the same bits is kept (`-0` is not `0`); one that
/// differs by a sign is rewritten.
#[cfg(feature = "ipl-text")]
#[test]
fn a_stored_line_is_kept_only_while_it_reads_as_the_values() {
    let data = b"inst\n1, a, 0, -0, 1e3, 1.50, 0, 0, 0, 1, -1\nend\n";
    let same = text_edited(data, EncodeOptions::default(), |_, _| {});
    assert_eq!(same, data);
    let zero = text_edited(data, EncodeOptions::default(), |_, inst| {
        inst.position[0] = 0.0
    });
    assert_eq!(zero, b"inst\n1, a, 0, 0, 1000, 1.5, 0, 0, 0, 1, -1\nend\n");
    let renamed = text_edited(data, EncodeOptions::default(), |_, inst| {
        inst.model_name = Some(b"b")
    });
    assert_eq!(
        renamed,
        b"inst\n1, b, 0, -0, 1000, 1.5, 0, 0, 0, 1, -1\nend\n"
    );
}

/// An instance the source does not have (no stored line) in a section of another kind: the
/// encoder closes that section, writes the line in an `inst` section of its own with the file's
/// line break, and returns to the source's section before its next stored line.
#[cfg(feature = "ipl-text")]
#[test]
fn a_line_of_the_encoders_own_returns_to_the_sources_section() {
    let mut encoder = Encoder::new(Format::IplText, Vec::new(), EncodeOptions::default()).unwrap();
    let data = b"cull\r\n1 2\r\n3 4\r\nend\r\n";
    struct Insert<'e>(&'e mut Encoder<Vec<u8>>);
    impl Visitor for Insert<'_> {
        fn file(&mut self, info: &FileInfo<'_>) -> Flow {
            Visitor::file(self.0, info)
        }
        fn record(&mut self, record: &Record<'_>) -> Flow {
            match record {
                Record::SectionLine(line) => {
                    let flow = Visitor::record(self.0, record);
                    if line.line == 2 {
                        let mut added = gtastream::IplInstance::default();
                        added.model_name = Some(b"new");
                        added.lod = -1;
                        return Visitor::record(self.0, &Record::Instance(added));
                    }
                    flow
                }
                _ => Flow::Continue,
            }
        }
        fn text_line(&mut self, raw: &[u8]) -> Flow {
            Visitor::text_line(self.0, raw)
        }
        fn end(&mut self) -> Flow {
            Visitor::end(self.0)
        }
    }
    Decoder::new()
        .decode_slice(data, &mut Insert(&mut encoder))
        .unwrap();
    assert!(encoder.is_finished(), "{:?}", encoder.error());
    let out = encoder.into_sink();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "cull\r\n1 2\r\nend\r\ninst\r\n0, new, 0, 0, 0, 0, 0, 0, 0, 0, -1\r\nend\r\ncull\r\n\
         3 4\r\nend\r\n"
    );
}

/// `normalise` writes the clean text: no comments, blank lines or stray lines (a stray line is
/// then lost, so refused), one spelling of every number, `\n` line breaks (a section line
/// keeps its inner blanks).
#[cfg(feature = "ipl-text")]
#[test]
fn text_normalise_writes_the_clean_file() {
    let clean = EncodeOptions::default().with_normalise(true);
    let out = rewrite_cut(&san_andreas_as_found(), Format::IplText, clean, &Cut::Whole);
    assert!(!out.contains(&b'#') && !out.contains(&b'\r'));
    assert!(out.starts_with(b"inst\n1, lod_a, 0, 1, 2, 3, 0, 0, 0, 1, -1\n"));
    let placement = |bytes: &[u8]| gtastream::Placement::parse(bytes).unwrap();
    let (a, b) = (placement(&san_andreas_as_found()), placement(&out));
    assert_eq!(a.instances, b.instances);
    assert_eq!(a.cars, b.cars);
    assert_eq!(a.section_lines, b.section_lines);
    let mut encoder = Encoder::new(Format::IplText, Vec::new(), clean).unwrap();
    let lost = Decoder::new().decode_slice(&vice_city_as_found(), &mut encoder);
    assert!(lost.is_err());
    assert!(matches!(
        encoder.error(),
        Some(encode::EncodeError::LineLost(_))
    ));
}

/// Binary IPLs whose layout the streaming writer reproduces come back byte for byte: one as
/// taken from `gta3.img` (the stock layout, padded with zeros to its 2048-byte sector), one
/// with its cars first, one with a stale size and an empty section's garbage offset. One whose
/// sections lie elsewhere (a gap of junk after the header, cars apart from the instances) is
/// refused, naming the cause, never written in another layout; `normalise` writes it in the
/// stock layout.
#[test]
fn bnry_layouts_are_written_back_or_refused() {
    use testkit::ipl::{bnry, put_u32, samples_car, samples_inst};
    let (i3, c2) = (samples_inst(3), samples_car(2));
    let mut from_img = bnry(&i3, 76, &c2, 76 + 120);
    from_img.resize(2048, 0);
    let cars_first = bnry(&i3, 76 + 96, &c2, 76);
    let mut stale = bnry(&i3, 76, &[], 0);
    put_u32(&mut stale, 0x20, 7);
    put_u32(&mut stale, 0x3C, 0xDEAD_BEEF);
    for (name, file) in [
        ("from gta3.img", &from_img),
        ("cars first", &cars_first),
        ("stale", &stale),
    ] {
        let cuts = [Cut::Whole, Cut::bytewise(), Cut::Chunk(13)];
        assert_written_back(name, file, Format::IplBinary, &cuts);
    }
    let mut gap = bnry(&i3, 100, &c2, 100 + 120);
    gap[76..100].fill(0xAB);
    let apart = bnry(&i3, 76, &c2, 512);
    for (name, file) in [("gap", &gap), ("apart", &apart)] {
        let mut encoder =
            Encoder::new(Format::IplBinary, Vec::new(), EncodeOptions::default()).unwrap();
        let result = Decoder::new().decode_slice(file, &mut encoder);
        assert!(result.is_err(), "{name}");
        assert_eq!(
            encoder.error(),
            Some(encode::EncodeError::NotRepresentable(
                encode::Lost::SectionOffset
            )),
            "{name}"
        );
        let clean = EncodeOptions::default().with_normalise(true);
        let out = rewrite_cut(file, Format::IplBinary, clean, &Cut::Whole);
        assert_eq!(out, bnry(&i3, 76, &c2, 76 + 120), "{name}");
    }
}

/// GTA III's `ANLF` (several `ANPK` blocks in one container) comes back byte for byte, however
/// cut and through the reading-ahead pipeline: three blocks as exporters leave them, one with
/// a stale container size and a zeroed tag, an `ANLF` of no blocks, one with bytes after it.
/// An edited keyframe in the second block recomputes that block's sizes and the container's,
/// nothing else. `normalise` joins the blocks into one `ANPK` (§9.1), as before.
#[test]
fn anlf_writes_back_byte_for_byte() {
    use testkit::anpk::{anlf, bytes, exported, mixed, second};
    let (first, two) = (exported(), bytes(&second()));
    let three = anlf(&[first.clone(), two.clone(), bytes(&mixed())]);
    let mut stale = anlf(&[two.clone(), first.clone()]);
    stale[4] ^= 0x10;
    stale[12 + two.len()..12 + two.len() + 4].fill(0);
    let empty = anlf(&[]);
    let mut trailing = anlf(std::slice::from_ref(&first));
    trailing.extend_from_slice(b"\0\0\x07junk");
    for (name, data) in [
        ("three", &three),
        ("stale", &stale),
        ("empty", &empty),
        ("trailing", &trailing),
    ] {
        let cuts = [Cut::Whole, Cut::bytewise(), Cut::Chunk(9)];
        assert_written_back(name, data, Format::Anpk, &cuts);
        let mut encoder = Encoder::new(Format::Anpk, Vec::new(), EncodeOptions::default()).unwrap();
        feed(
            data,
            &Cut::Whole,
            &mut Lookahead::new(&mut encoder, &data[..]),
        );
        assert!(encoder.into_sink() == *data, "{name}: through Lookahead");
    }
    // One more keyframe in the first block: its sizes and the container's are recomputed,
    // the later blocks stay as they were.
    let longer = edited(&three, Change::ExtraFrame);
    assert!(longer.len() > three.len());
    assert_eq!(&longer[..4], b"ANLF");
    assert_eq!(testkit::ipl::get_u32(&longer, 4) as usize, longer.len() - 8);
    assert!(longer.ends_with(&three[12 + first.len()..]));
    assert_eq!(
        Package::parse(&longer).unwrap().animations.len(),
        Package::parse(&three).unwrap().animations.len()
    );
    let clean = rewrite_cut(
        &three,
        Format::Anpk,
        EncodeOptions::default().with_normalise(true),
        &Cut::Whole,
    );
    assert_eq!(&clean[..4], b"ANPK");
    let merged = Package::parse(&clean).unwrap();
    assert_eq!(
        merged.animations.len(),
        Package::parse(&three).unwrap().animations.len()
    );
}

/// The frame type of every bone of a file, in order.
fn frame_types(data: &[u8]) -> Vec<gtastream::FrameType> {
    struct Types(Vec<gtastream::FrameType>);
    impl gtastream::Visitor for Types {
        fn bone(&mut self, info: &gtastream::BoneInfo<'_>) -> gtastream::Flow {
            self.0.push(info.frame_type);
            gtastream::Flow::Continue
        }
    }
    let mut types = Types(Vec::new());
    Decoder::new().decode_slice(data, &mut types).unwrap();
    types.0
}

/// `normalise` cleans the stored bytes, not the values: a float bone whose values fall on the
/// packed steps stays a float bone in its own format (reading ahead packs only in a conversion).
#[test]
fn normalise_through_lookahead_keeps_every_frame_type() {
    let mut floats = 0;
    for (name, data) in ifp2_files() {
        let options = EncodeOptions::default().with_normalise(true);
        let mut encoder = Encoder::new(format_of(&data), Vec::new(), options).unwrap();
        let decoded =
            Decoder::new().decode_slice(&data, &mut Lookahead::new(&mut encoder, &data[..]));
        if decoded.is_err() {
            continue; // a name that fills its field has no room for the clean NUL
        }
        let types = frame_types(&data);
        floats += types.iter().filter(|t| !t.is_packed()).count();
        assert_eq!(frame_types(&encoder.into_sink()), types, "{name}");
    }
    assert!(floats > 0, "no float bone among the files");
}

/// A `Package` merges an `ANLF`'s blocks into one `ANPK`: written, it is a clean `ANPK` header
/// around all of them (the first block's stored size would not fit), read again without a
/// warning and with every animation.
#[test]
fn an_anlf_package_is_written_as_one_clean_anpk() {
    use testkit::anpk::{anlf, bytes, exported, second};
    let data = anlf(&[exported(), bytes(&second())]);
    let package = Package::parse(&data).unwrap();
    let written = encode::write(&package).unwrap();
    assert_eq!(&written[..4], b"ANPK");
    let again = Package::parse(&written).unwrap();
    assert!(again.warnings.is_empty(), "{:?}", again.warnings);
    assert!(again == package);
}

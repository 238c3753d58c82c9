//! Every rule of `check` with an input it fires on and a near miss it does not fire on
//! (issue 30), shared by the tests that run them: the core's (tests/decode/checks.rs), whole
//! and under every cut, and the C library's streaming checker (ffi/src/checker.rs).

use gtastream::archive::ArchiveDecoder;
use gtastream::check::{Checker, Finding, Games, Rule};
use gtastream::{Decoder, Keyframe, Status};

use crate::driver::Cut;
use crate::ifp2::{f1, p3, AnimSpec, BoneSpec, FileSpec};

/// A packed rotation of no turn (4096 is 1.0).
pub const Q: [i16; 4] = [0, 0, 0, 4096];

/// The findings of a loose file named `name`, for the games it is for.
pub fn check(data: &[u8], name: &str) -> Vec<Finding> {
    let mut found = Vec::new();
    let mut checker = Checker::from_file(|f: &Finding| found.push(*f));
    checker.set_file_name(name.as_bytes());
    if let Err(error) = Decoder::new().decode_slice(data, &mut checker) {
        checker.failed(error);
    }
    checker.finish();
    found
}

pub fn check_for(data: &[u8], name: &str, games: Games) -> Vec<Finding> {
    let mut found = Vec::new();
    let mut checker = Checker::new(games, |f: &Finding| found.push(*f));
    checker.set_file_name(name.as_bytes());
    if let Err(error) = Decoder::new().decode_slice(data, &mut checker) {
        checker.failed(error);
    }
    checker.finish();
    found
}

pub fn check_archive(img: &[u8]) -> Vec<Finding> {
    check_archive_named(img, "gta3.img")
}

pub fn check_archive_named(img: &[u8], name: &str) -> Vec<Finding> {
    let mut found = Vec::new();
    let mut checker = Checker::from_file(|f: &Finding| found.push(*f));
    checker.set_archive_name(name.as_bytes());
    if let Err(error) = ArchiveDecoder::new(img.len() as u64).decode_slice(img, &mut checker) {
        checker.failed(error);
    }
    checker.finish();
    found
}

pub fn packed(times: &[i16]) -> BoneSpec {
    BoneSpec::packed("Root", times)
}

pub fn anp3(animations: Vec<AnimSpec>) -> Vec<u8> {
    FileSpec::anp3("demo", animations).build()
}

/// One animation of one packed bone with these tick times.
pub fn ticks(times: &[i16]) -> Vec<u8> {
    anp3(vec![AnimSpec::new("walk", vec![packed(times)])])
}

/// A VER2 archive of these entries (name, content), each in its own sectors.
pub fn img(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let sectors = |n: usize| n.div_ceil(2048).max(1);
    let directory = sectors(8 + 32 * entries.len());
    let mut out = vec![0u8; directory * 2048];
    out[..4].copy_from_slice(b"VER2");
    out[4..8].copy_from_slice(&(entries.len() as u32).to_le_bytes());
    let mut at = directory;
    for (i, (name, data)) in entries.iter().enumerate() {
        let r = 8 + 32 * i;
        out[r..r + 4].copy_from_slice(&(at as u32).to_le_bytes());
        out[r + 4..r + 6].copy_from_slice(&(sectors(data.len()) as u16).to_le_bytes());
        out[r + 8..r + 8 + name.len()].copy_from_slice(name.as_bytes());
        at += sectors(data.len());
    }
    for (_, data) in entries {
        let start = out.len();
        out.extend_from_slice(data);
        out.resize(start + sectors(data.len()) * 2048, 0);
    }
    out
}

/// An input of a case: a loose file by name, a version 2 archive, or a version 1 one.
pub enum Input {
    File(&'static str, Vec<u8>),
    /// A loose file checked for these games (`--game`).
    FileFor(&'static str, Vec<u8>, Games),
    Img(Vec<u8>),
    /// A version 2 archive by its file name.
    ImgNamed(&'static str, Vec<u8>),
    V1(Vec<u8>, Vec<u8>),
}

impl Input {
    /// The findings of the whole input, for the games it is for (or those named).
    pub fn findings(&self) -> Vec<Finding> {
        match self {
            Input::File(name, data) => check(data, name),
            Input::FileFor(name, data, games) => check_for(data, name, *games),
            Input::Img(img) => check_archive(img),
            Input::ImgNamed(name, img) => check_archive_named(img, name),
            Input::V1(dir, img) => {
                let mut found = Vec::new();
                let mut checker = Checker::from_file(|f: &Finding| found.push(*f));
                let mut decoder = ArchiveDecoder::version1(dir.len() as u64, img.len() as u64);
                if let Err(error) = decoder.decode_slices(dir, img, &mut checker) {
                    checker.failed(error);
                }
                checker.finish();
                found
            }
        }
    }

    /// The findings with the input fed in the pieces `cut` makes (seeks followed; in a
    /// version 1 archive, each file cut from where it is read).
    pub fn findings_cut(&self, cut: &Cut) -> Vec<Finding> {
        let mut found = Vec::new();
        let games = match self {
            Input::FileFor(_, _, games) => Some(*games),
            _ => None,
        };
        let mut checker = Checker::with_games(games, |f: &Finding| found.push(*f));
        let failed = match self {
            Input::File(name, data) | Input::FileFor(name, data, _) => {
                checker.set_file_name(name.as_bytes());
                crate::driver::feed_cut(data, cut, &mut checker)
            }
            Input::Img(img) | Input::ImgNamed(_, img) => {
                let name = match self {
                    Input::ImgNamed(name, _) => name,
                    _ => "gta3.img",
                };
                checker.set_archive_name(name.as_bytes());
                let decoder = ArchiveDecoder::new(img.len() as u64);
                feed_archive_cut(decoder, &[], img, cut, &mut checker)
            }
            Input::V1(dir, img) => {
                let decoder = ArchiveDecoder::version1(dir.len() as u64, img.len() as u64);
                feed_archive_cut(decoder, dir, img, cut, &mut checker)
            }
        };
        if let Err(error) = failed {
            checker.failed(error);
        }
        checker.finish();
        found
    }

    /// The bytes fed first (the `.dir` of a version 1 archive) and their length: what the
    /// cuts are chosen in.
    pub fn len(&self) -> usize {
        match self {
            Input::File(_, data) | Input::FileFor(_, data, _) => data.len(),
            Input::Img(img) | Input::ImgNamed(_, img) => img.len(),
            Input::V1(dir, img) => dir.len().max(img.len()),
        }
    }

    /// Never: every input has bytes (for clippy's `len_without_is_empty`).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Feeds an archive (`dir`: a version 1 archive's `.dir`) in the pieces `cut` makes, from
/// the position the decoder asks for, in the file it names.
fn feed_archive_cut(
    mut decoder: ArchiveDecoder,
    dir: &[u8],
    img: &[u8],
    cut: &Cut,
    checker: &mut impl gtastream::archive::ArchiveVisitor,
) -> Result<(), gtastream::Error> {
    let mut turn = 0usize;
    loop {
        let file = match decoder.input() {
            gtastream::archive::Input::Directory => dir,
            gtastream::archive::Input::Data => img,
        };
        let at = usize::try_from(decoder.position()).unwrap_or(usize::MAX);
        let rest = file.get(at..).unwrap_or_default();
        let end = cut.end(at.min(file.len()), turn, file.len());
        let piece = &rest[..end.saturating_sub(at).max(1).min(rest.len())];
        turn += 1;
        let progress = decoder.feed(piece, checker)?;
        match progress.status {
            Status::Paused | Status::Seek(_) => {}
            Status::Done => return decoder.finish(checker),
            Status::NeedInput if at + piece.len() >= file.len() => return decoder.finish(checker),
            Status::NeedInput => {}
        }
    }
}

pub fn file(data: Vec<u8>) -> Input {
    Input::File("demo.ifp", data)
}

pub fn text(data: &str) -> Input {
    Input::File("demo.ipl", data.as_bytes().to_vec())
}

/// A version 1 archive: `.dir` records (name, offset and size in sectors), an `.img` of
/// `sectors` zero sectors.
pub fn v1(records: &[(&[u8], u32, u32)], sectors: usize) -> Input {
    let mut dir = Vec::new();
    for (name, offset, size) in records {
        dir.extend_from_slice(&offset.to_le_bytes());
        dir.extend_from_slice(&size.to_le_bytes());
        let mut field = [0u8; 24];
        field[..name.len()].copy_from_slice(name);
        dir.extend_from_slice(&field);
    }
    Input::V1(dir, vec![0; sectors * 2048])
}

pub fn anpk(p: &gtastream::Package) -> Vec<u8> {
    crate::anpk::bytes(p)
}

pub fn anpk_bone(
    name: &str,
    id: Option<i32>,
    t: gtastream::FrameType,
    frames: Vec<Keyframe>,
) -> gtastream::Bone {
    crate::anpk::bone(name, id, t, frames)
}

/// A key at 0 s (or 1 s for a rotation of 0) of rotation (x, 0, 0, 1).
pub fn rotated(x: f32) -> Keyframe {
    let time = if x == 0.0 { 1.0 } else { 0.0 };
    crate::anpk::kf(time, [x, 0.0, 0.0, 1.0], [0.0; 3], [1.0; 3])
}

pub fn key(time: f32, translation: [f32; 3], scale: [f32; 3]) -> Keyframe {
    crate::anpk::kf(time, [0.0, 0.0, 0.0, 1.0], translation, scale)
}

/// An ANPK block `name` of animations named `names`, each of one KR00 bone of two keys.
pub fn anpk_named(block: &str, names: &[String]) -> Vec<u8> {
    use gtastream::FrameType::Kr00;
    let anims = names
        .iter()
        .map(|n| {
            let frames = vec![key(0.0, [0.0; 3], [1.0; 3]), key(1.0, [0.0; 3], [1.0; 3])];
            crate::anpk::anim(n, vec![anpk_bone("b", Some(0), Kr00, frames)])
        })
        .collect();
    anpk(&crate::anpk::package(block, anims))
}

pub fn anpk_one(bone: gtastream::Bone) -> Vec<u8> {
    anpk(&crate::anpk::package(
        "demo",
        vec![crate::anpk::anim("a", vec![bone])],
    ))
}

pub fn bnry(lod: i32, id: i32, car_model: i32) -> Vec<u8> {
    bnry_at([0.0; 3], lod, id, car_model)
}

pub fn bnry_at(position: [f32; 3], lod: i32, id: i32, car_model: i32) -> Vec<u8> {
    use crate::ipl::{Car, Inst};
    let inst = Inst::binary(position, [0.0, 0.0, 0.0, 1.0], id, 0, lod);
    let mut car = Car::zero();
    car.model_id = car_model;
    crate::ipl::bnry(&[inst], 0x4C, &[car], 0x4C + 40)
}

pub fn names(n: usize, prefix: &str) -> Vec<String> {
    (0..n).map(|i| format!("{prefix}{i}")).collect()
}

/// Every rule: an input it fires on, and a near miss it does not fire on.
pub fn cases() -> Vec<(Rule, Input, Input)> {
    use gtastream::FrameType::{Kr00, Krt0, Krts};
    let anim = || AnimSpec::new("walk", vec![packed(&[0, 5])]);
    let bytes = anim().written_frame_bytes() as u32;
    let float = |c: f32, t: f32| {
        BoneSpec::new(
            "Root",
            1,
            0,
            vec![f1([c, 0.0, 0.0, 1.0], 0.0), f1([0.0, 0.0, 0.0, 1.0], t)],
        )
    };
    let floats = |flags: u32, bone: BoneSpec| {
        file(anp3(vec![AnimSpec::new("walk", vec![bone]).flags(flags)]))
    };
    let block = |name: &str| FileSpec::anp3(name, vec![anim()]).build();
    let long = "a".repeat(24);
    let mut bad_type = ticks(&[0, 5]);
    let type_at = 36 + 36 + 24;
    bad_type[type_at] = 9;
    let truncated = ticks(&[0, 5]);
    let kr01 = {
        let mut b = anpk_named("demo", &names(1, "a"));
        let at = b.windows(4).position(|w| w == b"KR00").unwrap();
        b[at..at + 4].copy_from_slice(b"KR01");
        b
    };
    let sa = |line: &str| text(&format!("inst\n{line}\nend\n"));
    let good_sa = "1, name, 0, 0, 0, 0, 0, 0, 0, 1, -1";
    let sa_at = |x: &str, lod: &str| sa(&format!("1, name, 0, {x}, 0, 0, 0, 0, 0, 1, {lod}"));
    let iii = |line: &str| text(&format!("inst\n{line}\nend\n"));
    let iii_at = |x: &str, w: &str, s: &str| {
        iii(&format!("1, name, {x}, 0, 0, {s}, {s}, {s}, 0, 0, 0, {w}"))
    };
    let vc_at = |x: &str| {
        text(&format!(
            "inst\n1, name, 0, {x}, 0, 0, 1, 1, 1, 0, 0, 0, 1\nend\n"
        ))
    };
    // An IDE checked for `games`.
    let ide = |text: &str, games: Games| Input::FileFor("x.ide", text.as_bytes().to_vec(), games);
    let sa_section = |section: &str, line: &str| {
        text(&format!("inst\n{good_sa}\nend\n{section}\n{line}\nend\n"))
    };
    let iii_section = |section: &str, line: &str| {
        text(&format!(
            "inst\n1, name, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1\nend\n{section}\n{line}\nend\n"
        ))
    };
    let vc_section = |section: &str, line: &str| {
        text(&format!(
            "inst\n1, name, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1\nend\n{section}\n{line}\nend\n"
        ))
    };
    let fields = |n: usize| vec!["1"; n].join(", ");
    let many = |n: usize, ext: &str| {
        let names: Vec<String> = (0..n).map(|i| format!("e{i}.{ext}")).collect();
        let entries: Vec<(&str, &[u8])> = names.iter().map(|n| (n.as_str(), &b""[..])).collect();
        Input::Img(img(&entries))
    };
    let v1_many = |n: usize, ext: &str| {
        let names: Vec<String> = (0..n).map(|i| format!("e{i}.{ext}")).collect();
        let records: Vec<(&[u8], u32, u32)> = names.iter().map(|n| (n.as_bytes(), 0, 0)).collect();
        v1(&records, 1)
    };
    let mut second = img(&[("a.dff", b"x")]);
    second[14..16].copy_from_slice(&2u16.to_le_bytes());
    let mut size_field = img(&[("a.dff", b"x")]);
    size_field[14..16].copy_from_slice(&1u16.to_le_bytes());
    let mut overlap = img(&[("a.dff", b"x"), ("b.dff", b"y")]);
    overlap[40..44].copy_from_slice(&1u32.to_le_bytes());
    let mut on_directory = img(&[("a.dff", b"x")]);
    on_directory[8..12].copy_from_slice(&0u32.to_le_bytes());
    let mut zero = img(&[("a.dff", b"x")]);
    zero[12..14].copy_from_slice(&0u16.to_le_bytes());
    let mut far = img(&[("a.dff", b"x")]);
    far[8..12].copy_from_slice(&(1u32 << 21).to_le_bytes());
    let mut count = img(&[("a.dff", b"x")]);
    count[4..8].copy_from_slice(&200u32.to_le_bytes());
    let two = |a: &str, b: &str| Input::Img(img(&[(a, b"x"), (b, b"y")]));
    let one = |a: &str| Input::Img(img(&[(a, b"x")]));
    let dir_cut = match v1(&[(b"a.dff", 1, 1)], 2) {
        Input::V1(mut dir, img) => {
            dir.extend_from_slice(&[0; 8]);
            Input::V1(dir, img)
        }
        other => other,
    };
    let stream_name = "x".repeat(18);
    vec![
        (Rule::DecodeFailed, file(truncated[..truncated.len() - 3].to_vec()), file(truncated.clone())),
        (Rule::Incomplete, file(bad_type.clone()), file(ticks(&[0, 5]))),
        (
            Rule::TableFull,
            file(anp3(names(400, "a").iter().map(|n| AnimSpec::new(n, vec![packed(&[0, 5])])).collect())),
            file(anp3(names(300, "a").iter().map(|n| AnimSpec::new(n, vec![packed(&[0, 5])])).collect())),
        ),
        (
            Rule::AnpkChunkTooBig,
            file(anpk_named(&"n".repeat(253), &names(1, "a"))),
            file(anpk_named(&"n".repeat(251), &names(1, "a"))),
        ),
        (
            Rule::MtaAnpkStructOverrun,
            file(anpk_named("demo", &["a".repeat(24)])),
            file(anpk_named("demo", &["a".repeat(23)])),
        ),
        (Rule::AnpkKfrmUnknown, file(kr01), file(anpk_named("demo", &names(1, "a")))),
        (
            Rule::AnpkKfrmOnZeroFrames,
            file(crate::anpk::with_empty_chunks(b"K000", true)),
            file(anpk(&crate::anpk::mixed())),
        ),
        (
            // A 48-byte ANIM is III's file: VC and SA only when asked for.
            Rule::AnpkAnimSize,
            Input::FileFor(
                "demo.ifp",
                anpk_one(anpk_bone("b", None, Kr00, vec![key(0.0, [0.0; 3], [1.0; 3])])),
                Games::VC,
            ),
            file(anpk_one(anpk_bone("b", Some(0), Kr00, vec![key(0.0, [0.0; 3], [1.0; 3])]))),
        ),
        (
            Rule::Anp3FrameDataTooSmall,
            file(anp3(vec![anim().frame_data_size(bytes - 1)])),
            file(anp3(vec![anim().frame_data_size(bytes)])),
        ),
        (Rule::Anp3FrameTypeInvalid, file(bad_type), file(ticks(&[0, 5]))),
        (
            // The first bone's frame type overrides the flag: only an animation of no bones
            // keeps it (a packed animation under flag 0, once a warning, is harmless).
            Rule::Anp3CompressFlagMismatch,
            file(anp3(vec![AnimSpec::new("walk", vec![]).flags(1)])),
            file(anp3(vec![anim().flags(0), AnimSpec::new("run", vec![]).flags(0)])),
        ),
        (
            Rule::Anp3FramesOverU16,
            file(anp3(vec![AnimSpec::new("walk", vec![packed(&vec![0; 32768])])])),
            file(anp3(vec![AnimSpec::new("walk", vec![packed(&vec![0; 32767])])])),
        ),
        (
            Rule::Anp3SeqsOverU16,
            file(anp3(vec![AnimSpec::new("walk", vec![packed(&[0, 5]); 32768])])),
            file(anp3(vec![AnimSpec::new("walk", vec![packed(&[0, 5]); 32767])])),
        ),
        (
            Rule::Anp3NameUnterminated,
            file(anp3(vec![AnimSpec::new(&long, vec![packed(&[0, 5])])])),
            file(anp3(vec![AnimSpec::new(&long[..23], vec![packed(&[0, 5])])])),
        ),
        (Rule::MtaFloatFrames, floats(0, float(0.0, 1.0)), file(anp3(vec![anim()]))),
        (
            Rule::BlockNameMismatch,
            Input::Img(img(&[("walk.ifp", &block("other"))])),
            Input::Img(img(&[("walk.ifp", &block("WALK"))])),
        ),
        (
            Rule::BlockNameMismatchLoose,
            Input::File("demo.ifp", block("other")),
            Input::File("demo.ifp", block("DEMO")),
        ),
        (
            Rule::BlockNameTooLong,
            Input::File("x.ifp", block(&"b".repeat(16))),
            Input::File("x.ifp", block(&"b".repeat(15))),
        ),
        (
            Rule::BlockPedName,
            Input::File("ped.ifp", block("notped")),
            Input::File("ped.ifp", block("PED")),
        ),
        (
            Rule::AnimDuplicateName,
            file(anp3(vec![anim(), AnimSpec::new("WALK", vec![packed(&[0, 5])])])),
            file(anp3(vec![anim(), AnimSpec::new("run", vec![packed(&[0, 5])])])),
        ),
        (
            Rule::AnimNameTooLong,
            file(anpk_named("demo", &["a".repeat(24)])),
            file(anpk_named("demo", &["a".repeat(23)])),
        ),
        (
            // 44-byte ANIM chunks: a Vice City file, held to VC's 450 (not III's 250).
            Rule::AnimsTotalOverLimit,
            file(anpk_named("demo", &names(451, "a"))),
            file(anpk_named("demo", &names(450, "a"))),
        ),
        (Rule::BlocksOverLimit, many(181, "ifp"), many(180, "ifp")),
        (
            Rule::AnimNoSequences,
            file(anp3(vec![AnimSpec::new("walk", vec![])])),
            file(anp3(vec![anim()])),
        ),
        (
            Rule::SeqZeroFrames,
            file(anp3(vec![AnimSpec::new("walk", vec![packed(&[])])])),
            file(anp3(vec![anim()])),
        ),
        (
            Rule::SeqDuplicateBone,
            file(anpk(&crate::anpk::duplicate_bones())),
            file(anpk(&crate::anpk::mixed())),
        ),
        (Rule::TimeZeroDuration, file(ticks(&[0])), file(ticks(&[1]))),
        (Rule::TimeSeqNonpositiveSpan, file(ticks(&[5, 5])), file(ticks(&[5, 6]))),
        (Rule::TimeSeqLastNonpositive, file(ticks(&[-5, 0])), file(ticks(&[-5, 1]))),
        (Rule::TimeDecreasing, file(ticks(&[0, 10, 5, 20])), file(ticks(&[0, 5, 10, 20]))),
        (Rule::TimeDuplicate, file(ticks(&[0, 5, 5, 10])), file(ticks(&[0, 5, 6, 10]))),
        (Rule::TimeFirstNotZero, file(ticks(&[5, 10])), file(ticks(&[0, 10]))),
        // SA packs ANPK frames as it loads them: 546.1 s is the last tick. (ANP3 float frames
        // are taken as they are, whatever the flag says.)
        (
            Rule::TimeTickOverflow,
            file(anpk_one(anpk_bone("b", Some(0), Kr00, vec![key(0.0, [0.0; 3], [1.0; 3]), key(547.0, [0.0; 3], [1.0; 3])]))),
            file(anpk_one(anpk_bone("b", Some(0), Kr00, vec![key(0.0, [0.0; 3], [1.0; 3]), key(546.0, [0.0; 3], [1.0; 3])]))),
        ),
        (
            Rule::ValueQuatRange,
            file(anpk_one(anpk_bone("b", Some(0), Kr00, vec![rotated(8.0), rotated(0.0)]))),
            file(anpk_one(anpk_bone("b", Some(0), Kr00, vec![rotated(7.9), rotated(0.0)]))),
        ),
        (
            Rule::ValueTransRange,
            file(anpk_one(anpk_bone("b", Some(0), Krt0, vec![key(0.0, [32.0, 0.0, 0.0], [1.0; 3])]))),
            file(anpk_one(anpk_bone("b", Some(0), Krt0, vec![key(0.0, [31.9, 0.0, 0.0], [1.0; 3])]))),
        ),
        (Rule::ValueNan, floats(0, float(f32::NAN, 1.0)), floats(0, float(0.0, 1.0))),
        (
            Rule::ValueScaleIgnored,
            file(anpk_one(anpk_bone("b", Some(0), Krts, vec![key(0.0, [0.0; 3], [2.0; 3])]))),
            file(anpk_one(anpk_bone("b", Some(0), Krts, vec![key(0.0, [0.0; 3], [1.0; 3])]))),
        ),
        (Rule::Img1PartialRecord, dir_cut, v1(&[(b"a.dff", 1, 1)], 2)),
        (Rule::Img1NameNoDot, v1(&[(b"nodot", 1, 1)], 2), v1(&[(b"a.dff", 1, 1)], 2)),
        (
            Rule::Img1NameRules,
            v1(&[(b"abcdefghijklmnopqrstu.d", 1, 1)], 2),
            v1(&[(b"abcdefghijklmnopqrst.d", 1, 1)], 2),
        ),
        (
            Rule::Img1NameUnterminated,
            v1(&[(b"abcdefghijklmnopqrst.dff", 1, 1)], 2),
            v1(&[(b"abcdefghijklmnopqrs.dff", 1, 1)], 2),
        ),
        (Rule::Img1ExtExact, v1(&[(b"a.Dff", 1, 1)], 2), v1(&[(b"a.dff", 1, 1)], 2)),
        (
            Rule::Img1Duplicate,
            v1(&[(b"a.dff", 1, 1), (b"A.DFF", 2, 1)], 3),
            v1(&[(b"a.dff", 1, 1), (b"b.dff", 2, 1)], 3),
        ),
        (
            Rule::Img1SlotNameLen,
            v1(&[(b"abcdefghijklmnopqrst.txd", 1, 1)], 2),
            v1(&[(b"abcdefghijklmnopqrs.txd", 1, 1)], 2),
        ),
        (Rule::Img1SlotsOverLimit, v1_many(851, "txd"), v1_many(850, "txd")),
        (
            Rule::Img1OffsetRange,
            v1(&[(b"a.dff", 1 << 21, 1)], 2),
            v1(&[(b"a.dff", (1 << 21) - 1, 1)], 2),
        ),
        (
            Rule::Img1DataOverlap,
            v1(&[(b"a.dff", 1, 2), (b"b.dff", 2, 1)], 3),
            v1(&[(b"a.dff", 1, 1), (b"b.dff", 2, 1)], 3),
        ),
        (Rule::Img2CountVsSize, Input::Img(count), one("a.dff")),
        (Rule::Img2NameRules, one("nodot"), one("a.dff")),
        (Rule::Img2ExtKinds, one("a.xyz"), one("a.txd")),
        (Rule::Img2SizeField, Input::Img(size_field), one("a.dff")),
        (Rule::Img2StreamBufferOverflow, Input::Img(second), one("a.dff")),
        (Rule::Img2ZeroSize, Input::Img(zero), one("a.dff")),
        (Rule::Img2Duplicate, two("a.dff", "A.DFF"), two("a.dff", "b.dff")),
        (Rule::Img2ColNoDedupe, two("a.col", "a.col"), two("a.col", "b.col")),
        (Rule::Img2RrrScmSlots, many(83, "scm"), many(82, "scm")),
        (Rule::Img2DatName, one("nodes64.dat"), one("nodes63.dat")),
        (Rule::Img2SlotNameLen, one(&format!("{stream_name}.col")), one(&format!("{}.col", &stream_name[1..]))),
        (Rule::Img2OffsetRange, Input::Img(far), one("a.dff")),
        (Rule::Img2DataOverlap, Input::Img(overlap), two("a.dff", "b.dff")),
        (Rule::Ipl3Sections, iii_section("cars", "1"), iii_section("pick", "1")),
        (Rule::IplvcSections, vc_section("cars", "1"), vc_section("occl", &fields(7))),
        (Rule::IplsaSections, sa_section("zzzz", "1"), sa_section("cull", &fields(11))),
        (
            Rule::Ipl3MissingEnd,
            text("inst\n1, name, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1\npick\nend\n"),
            text("inst\n1, name, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1\nend\npick\nend\n"),
        ),
        (
            Rule::IplsaMissingEnd,
            text(&format!("inst\n{good_sa}\n")),
            text(&format!("inst\n{good_sa}\nend\n")),
        ),
        (
            Rule::Ipl3InstFields,
            text("inst\n1, name, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1\n1, name, 0, 0, 0, 1, 1, 1, 0, 0, 0\nend\n"),
            text("inst\n1, name, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1\nend\n"),
        ),
        (
            Rule::IplvcInstFields,
            text("inst\n1, name, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1\n1, name, 0, 0, 0, 1, 1, 1, 0, 0, 0\nend\n"),
            text("inst\n1, name, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1\n1, name, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1\nend\n"),
        ),
        (
            Rule::IplsaInstFields,
            text(&format!("inst\n{good_sa}\n1, name, 0, 0, 0, 0, 0, 0, 0, 1\nend\n")),
            sa(good_sa),
        ),
        (
            Rule::Ipl3InstNameLen,
            iii(&format!("1, {}, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1", "n".repeat(24))),
            iii(&format!("1, {}, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1", "n".repeat(23))),
        ),
        (
            Rule::IplsaInstNameLen,
            sa(&format!("1, {}, 0, 0, 0, 0, 0, 0, 0, 1, -1", "n".repeat(24))),
            sa(&format!("1, {}, 0, 0, 0, 0, 0, 0, 0, 1, -1", "n".repeat(23))),
        ),
        (
            Rule::Ipl3InstIdRange,
            iii("5500, name, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1"),
            iii("5499, name, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1"),
        ),
        (
            Rule::IplvcInstIdRange,
            text("inst\n6500, name, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1\nend\n"),
            text("inst\n6499, name, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1\nend\n"),
        ),
        (
            Rule::IplsaInstIdRange,
            sa("20000, name, 0, 0, 0, 0, 0, 0, 0, 1, -1"),
            sa("19999, name, 0, 0, 0, 0, 0, 0, 0, 1, -1"),
        ),
        (Rule::Ipl3InstScaleIgnored, iii_at("0", "1", "2"), iii_at("0", "1", "1")),
        (Rule::Ipl3InstQuat, iii_at("0", "1.5", "1"), iii_at("0", "1", "1")),
        (Rule::Ipl3InstOutsideWorld, iii_at("2000", "1", "1"), iii_at("1999", "1", "1")),
        (Rule::IplvcInstOutsideWorld, vc_at("1600"), vc_at("1599")),
        // Text cannot hold a NaN the game reads: binary IPLs can.
        (
            Rule::IplsaPosNan,
            Input::File("x.ipl", bnry_at([f32::NAN, 0.0, 0.0], -1, 1, 400)),
            Input::File("x.ipl", bnry_at([2999.0, 0.0, 0.0], -1, 1, 400)),
        ),
        (Rule::IplsaPosOffMap, sa_at("3000", "-1"), sa_at("2999", "-1")),
        (Rule::IplsaLodRange, sa_at("0", "1"), sa_at("0", "0")),
        (
            Rule::IplsaInstCount,
            text(&format!("inst\n{}end\n", format!("{good_sa}\n").repeat(4097))),
            text(&format!("inst\n{}end\n", format!("{good_sa}\n").repeat(4096))),
        ),
        (Rule::IplsaPathStops, sa_section("path", "1"), sa_section("pick", &fields(4))),
        (
            Rule::IplsaCars,
            sa_section("cars", "0, 0, 0, 0, 399, -1, -1, 0, 0, 0, 0, 0"),
            sa_section("cars", "0, 0, 0, 0, 400, -1, -1, 0, 0, 0, 0, 0"),
        ),
        (
            Rule::IdeIdRange,
            ide("objs\n5500, m, t, 1, 100, 0\nend\n", Games::III),
            ide("objs\n5499, m, t, 1, 100, 0\nend\n", Games::III),
        ),
        (
            Rule::IdeNameLength,
            ide("hier\n1, abcdefghijklmnopqrstuvwx, t\nend\n", Games::ALL),
            ide("hier\n1, abcdefghijklmnopqrstuvw, t\nend\n", Games::ALL),
        ),
        (Rule::Ipl3ZoneFields, iii_section("zone", &fields(8)), iii_section("zone", &fields(9))),
        (Rule::IplsaZoneFields, sa_section("zone", &fields(9)), sa_section("zone", &fields(10))),
        (Rule::Ipl3CullFields, iii_section("cull", &fields(10)), iii_section("cull", &fields(11))),
        (Rule::IplsaCull, sa_section("cull", &fields(12)), sa_section("cull", &fields(14))),
        (Rule::IplvcOcclFields, vc_section("occl", &fields(6)), vc_section("occl", &fields(7))),
        (Rule::IplsaEnexFields, sa_section("enex", &fields(17)), sa_section("enex", &fields(18))),
        (Rule::IplsaAuzoName, sa_section("auzo", "abcdefgh, 1"), sa_section("auzo", "abcdefg, 1")),
        (Rule::IplsaTcyc, sa_section("tcyc", &fields(7)), sa_section("tcyc", &fields(8))),
        (Rule::IplsaJumpPickGrge, sa_section("pick", &fields(5)), sa_section("pick", &fields(4))),
        (
            Rule::BnryBounds,
            Input::File("x.ipl", bnry(-1, 1, 400)[..0x4C + 40].to_vec()),
            Input::File("x.ipl", bnry(-1, 1, 400)),
        ),
        (
            Rule::BnryInstIdRange,
            Input::File("x.ipl", bnry(-1, 20000, 400)),
            Input::File("x.ipl", bnry(-1, 19999, 400)),
        ),
        (
            Rule::BnryLodNoParent,
            Input::File("x.ipl", bnry(0, 1, 400)),
            Input::File("x_stream0.ipl", bnry(0, 1, 400)),
        ),
        (
            Rule::BnryLodRange,
            Input::File("x_stream0.ipl", bnry(-2, 1, 400)),
            Input::File("x_stream0.ipl", bnry(-1, 1, 400)),
        ),
        (
            Rule::BnryCarsModel,
            Input::File("x.ipl", bnry(-1, 1, 631)),
            Input::File("x.ipl", bnry(-1, 1, 630)),
        ),
        (
            Rule::BnryName,
            Input::Img(img(&[(&format!("{stream_name}.ipl"), &bnry(-1, 1, 400))])),
            Input::Img(img(&[(&format!("{}.ipl", &stream_name[1..]), &bnry(-1, 1, 400))])),
        ),
        (
            Rule::Ifp2MixedFrameClasses,
            file(anp3(vec![AnimSpec::new("walk", vec![packed(&[0, 5]), float(0.0, 1.0)])])),
            file(anp3(vec![
                AnimSpec::new("walk", vec![packed(&[0, 5]), packed(&[0, 5])]),
                AnimSpec::new("run", vec![float(0.0, 1.0)]),
            ])),
        ),
        (
            Rule::SeqBoneIdRange,
            file(anp3(vec![AnimSpec::new("walk", vec![BoneSpec::new("Root", 3, 0x8000, vec![p3(Q, 0), p3(Q, 5)])])])),
            file(anp3(vec![AnimSpec::new("walk", vec![BoneSpec::new("Root", 3, 0x7FFF, vec![p3(Q, 0), p3(Q, 5)])])])),
        ),
        (
            Rule::AnpkZeroFramesSa,
            file(anpk_one(anpk_bone("b", Some(0), Kr00, vec![]))),
            file(anpk_one(anpk_bone("b", Some(0), Kr00, vec![key(0.0, [0.0; 3], [1.0; 3])]))),
        ),
        (
            // Vice City reads the ANP3 as ANPK: asked for by name, or in its own archive.
            Rule::MagicUnknown,
            Input::FileFor("walk.ifp", block("walk"), Games::VC),
            Input::FileFor("walk.ifp", block("walk"), Games::SA),
        ),
        (
            Rule::CutsceneBlockName,
            Input::ImgNamed("cuts.img", img(&[("intro.ifp", &block("other"))])),
            Input::ImgNamed("cuts.img", img(&[("intro.ifp", &block("INTRO"))])),
        ),
        (
            Rule::ForeignFile,
            Input::File("gta3.img", b"VERF\0\0\0\0\0\0\0\0\0\0\0\0".to_vec()),
            file(ticks(&[0, 5])),
        ),
        (
            Rule::IplInstShifted,
            sa_lines(&[good_sa, "1, name, 0, 8149,5, 0, 0, 0, 0, 0, 1, -1"]),
            sa_lines(&[good_sa, "1, name, 0, 8149.5, 0, 0, 0, 0, 0, 1, -1"]),
        ),
    ]
}

/// A text IPL of these `inst` lines.
pub fn sa_lines(lines: &[&str]) -> Input {
    text(&format!("inst\n{}\nend\n", lines.join("\n")))
}

/// Issue 30's misses and real shapes beyond [`cases`]: one bone id under two names, a first
/// key before 0, a 300-character animation name in ANPK, a decimal comma in a text IPL, a
/// stock stream IPL under a long name, a Vice City `ped.ifp`, a VER2 archive with records
/// the game skips, and a `cuts.img` entry.
pub fn misses() -> Vec<(&'static str, Input)> {
    let bone = |name: &str, id: i32| BoneSpec::new(name, 3, id, vec![p3(Q, 0), p3(Q, 5)]);
    let same_id = anp3(vec![AnimSpec::new(
        "walk",
        vec![bone("Spine", 2), bone("Spine1", 2)],
    )]);
    let mut long = anpk_named("demo", &["a".repeat(20)]);
    let at = long.windows(4).position(|w| w == b"NAME").unwrap();
    let old = u32::from_le_bytes(long[at + 4..at + 8].try_into().unwrap()) as usize;
    let mut body = vec![b'a'; 300];
    body.resize(304, 0);
    long.splice(at + 8..at + 8 + old.next_multiple_of(4), body);
    long[at + 4..at + 8].copy_from_slice(&304u32.to_le_bytes());
    let good_sa = "1, name, 0, 0, 0, 0, 0, 0, 0, 1, -1";
    let comma = format!("inst\n{good_sa}\n1, name, 0, 8149,5, 0, 0, 0, 0, 0, 1, -1\nend\n");
    let ifp = ticks(&[0, 5]);
    let mut skipped = img(&[("nodot", &ifp), ("empty.ifp", &ifp), ("other.ifp", &ifp)]);
    skipped[8 + 32 + 4..8 + 32 + 6].copy_from_slice(&0u16.to_le_bytes());
    skipped[2048 + 4..2048 + 8].copy_from_slice(&u32::MAX.to_le_bytes());
    let cut = FileSpec::anp3("other", vec![AnimSpec::new("walk", vec![packed(&[0, 5])])]).build();
    vec![
        ("same bone id", Input::File("demo.ifp", same_id)),
        (
            "first key before 0",
            Input::File("demo.ifp", ticks(&[-5, 10])),
        ),
        (
            "ANPK chunk of 304 bytes",
            Input::FileFor("demo.ifp", long, Games::ALL),
        ),
        ("decimal comma", Input::File("a.ipl", comma.into_bytes())),
        (
            "stream IPL, long name",
            Input::File(
                "lae_stream0_with_a_very_long_name_over_32_bytes.ipl",
                bnry(0, 1, 400),
            ),
        ),
        (
            "VC ped.ifp",
            Input::File("ped.ifp", anpk_named("ped", &names(269, "anim"))),
        ),
        ("skipped records", Input::Img(skipped)),
        (
            "cutscene",
            Input::ImgNamed("cuts.img", img(&[("intro.ifp", &cut)])),
        ),
    ]
}

//! `check`: each rule fires on a case built in code and stays quiet on its near miss; files
//! in the shape the games ship give no error; findings are the same however the input is
//! cut; docs/CHECKS.md lists the table.

use gtastream::archive::ArchiveDecoder;
use gtastream::check::{Checker, Finding, Games, Level, Rule};
use gtastream::Decoder;
use testkit::driver::Cut;
use testkit::ifp2::{f1, p3, AnimSpec, BoneSpec, FileSpec};

const Q: [i16; 4] = [0, 0, 0, 4096];

/// The findings of a loose file named `name`.
fn check(data: &[u8], name: &str) -> Vec<Finding> {
    check_for(data, name, Games::ALL)
}

fn check_for(data: &[u8], name: &str, games: Games) -> Vec<Finding> {
    let mut found = Vec::new();
    let mut checker = Checker::new(games, |f: &Finding| found.push(*f));
    checker.set_file_name(name.as_bytes());
    if let Err(error) = Decoder::new().decode_slice(data, &mut checker) {
        checker.failed(error);
    }
    checker.finish();
    found
}

fn check_archive(img: &[u8]) -> Vec<Finding> {
    let mut found = Vec::new();
    let mut checker = Checker::new(Games::ALL, |f: &Finding| found.push(*f));
    if let Err(error) = ArchiveDecoder::new(img.len() as u64).decode_slice(img, &mut checker) {
        checker.failed(error);
    }
    checker.finish();
    found
}

fn fires(found: &[Finding], rule: Rule) -> bool {
    found.iter().any(|f| f.rule == rule)
}

fn errors(found: &[Finding]) -> Vec<String> {
    found
        .iter()
        .filter(|f| f.level() == Level::Error)
        .map(|f| format!("{} at {}: {f}", f.rule.id(), f.offset))
        .collect()
}

fn packed(times: &[i16]) -> BoneSpec {
    BoneSpec::new("Root", 3, 0, times.iter().map(|&t| p3(Q, t)).collect())
}

fn anp3(animations: Vec<AnimSpec>) -> Vec<u8> {
    FileSpec::anp3("demo", animations).build()
}

/// One animation of one packed bone with these tick times.
fn ticks(times: &[i16]) -> Vec<u8> {
    anp3(vec![AnimSpec::new("walk", vec![packed(times)])])
}

/// `rule` fires on `bad` and not on `good` (loose files named demo.ifp).
fn pair(rule: Rule, bad: &[u8], good: &[u8]) {
    let (b, g) = (check(bad, "demo.ifp"), check(good, "demo.ifp"));
    assert!(fires(&b, rule), "{} does not fire: {b:?}", rule.id());
    assert!(
        !fires(&g, rule),
        "{} fires on the near miss: {g:?}",
        rule.id()
    );
}

#[test]
fn timing_rules() {
    pair(Rule::TimeZeroDuration, &ticks(&[0]), &ticks(&[1]));
    pair(
        Rule::TimeSeqNonpositiveSpan,
        &ticks(&[5, 5]),
        &ticks(&[5, 6]),
    );
    pair(
        Rule::TimeSeqLastNonpositive,
        &ticks(&[-5, 0]),
        &ticks(&[-5, 1]),
    );
    pair(
        Rule::TimeDecreasing,
        &ticks(&[0, 10, 5, 20]),
        &ticks(&[0, 5, 10, 20]),
    );
    pair(
        Rule::TimeDuplicate,
        &ticks(&[0, 5, 5, 10]),
        &ticks(&[0, 5, 6, 10]),
    );
    pair(Rule::TimeFirstNotZero, &ticks(&[5, 10]), &ticks(&[0, 10]));
}

#[test]
fn anp3_field_rules() {
    let anim = || AnimSpec::new("walk", vec![packed(&[0, 5])]);
    let bytes = anim().written_frame_bytes() as u32;
    pair(
        Rule::Anp3FrameDataTooSmall,
        &anp3(vec![anim().frame_data_size(bytes - 1)]),
        &anp3(vec![anim().frame_data_size(bytes)]),
    );
    pair(
        Rule::Anp3CompressFlagMismatch,
        &anp3(vec![anim().flags(0)]),
        &anp3(vec![anim().flags(1)]),
    );
    let float = || {
        BoneSpec::new(
            "Root",
            1,
            0,
            vec![f1([0.0, 0.0, 0.0, 1.0], 0.0), f1([0.0, 0.0, 0.0, 1.0], 1.0)],
        )
    };
    pair(
        Rule::Anp2CompressedTypes,
        &FileSpec::anp2("demo", vec![anim()]).build(),
        &FileSpec::anp2("demo", vec![AnimSpec::new("walk", vec![float()])]).build(),
    );
    pair(
        Rule::MtaFloatFrames,
        &anp3(vec![AnimSpec::new("walk", vec![float()]).flags(0)]),
        &anp3(vec![anim()]),
    );
    let long = "a".repeat(24);
    pair(
        Rule::Anp3NameUnterminated,
        &anp3(vec![AnimSpec::new(&long, vec![packed(&[0, 5])])]),
        &anp3(vec![AnimSpec::new(&long[..23], vec![packed(&[0, 5])])]),
    );
    pair(
        Rule::AnimNoSequences,
        &anp3(vec![AnimSpec::new("walk", vec![])]),
        &anp3(vec![anim()]),
    );
    pair(
        Rule::SeqZeroFrames,
        &anp3(vec![AnimSpec::new("walk", vec![packed(&[])])]),
        &anp3(vec![anim()]),
    );
    pair(
        Rule::AnimDuplicateName,
        &anp3(vec![anim(), AnimSpec::new("WALK", vec![packed(&[0, 5])])]),
        &anp3(vec![anim(), AnimSpec::new("run", vec![packed(&[0, 5])])]),
    );
    let nan = BoneSpec::new(
        "Root",
        1,
        0,
        vec![f1([f32::NAN, 0.0, 0.0, 1.0], 0.0), f1([0.0; 4], 1.0)],
    );
    pair(
        Rule::ValueNan,
        &anp3(vec![AnimSpec::new("walk", vec![nan]).flags(0)]),
        &anp3(vec![AnimSpec::new("walk", vec![float()]).flags(0)]),
    );
    // Float frames under the compressed flag are packed by SA: 546.1 s is the last tick.
    let late = |t: f32| {
        BoneSpec::new(
            "Root",
            1,
            0,
            vec![f1([0.0, 0.0, 0.0, 1.0], 0.0), f1([0.0, 0.0, 0.0, 1.0], t)],
        )
    };
    pair(
        Rule::TimeTickOverflow,
        &anp3(vec![AnimSpec::new("walk", vec![late(547.0)]).flags(1)]),
        &anp3(vec![AnimSpec::new("walk", vec![late(546.0)]).flags(1)]),
    );
    let big = |c: f32| {
        BoneSpec::new(
            "Root",
            1,
            0,
            vec![f1([c, 0.0, 0.0, 1.0], 0.0), f1([0.0, 0.0, 0.0, 1.0], 1.0)],
        )
    };
    pair(
        Rule::ValueQuatRange,
        &anp3(vec![AnimSpec::new("walk", vec![big(8.0)]).flags(1)]),
        &anp3(vec![AnimSpec::new("walk", vec![big(7.9)]).flags(1)]),
    );
}

#[test]
fn block_rules() {
    let file = |name: &str| {
        FileSpec::anp3(name, vec![AnimSpec::new("walk", vec![packed(&[0, 5])])]).build()
    };
    let ped = check(&file("notped"), "ped.ifp");
    assert!(fires(&ped, Rule::BlockPedName));
    assert!(!fires(&check(&file("PED"), "ped.ifp"), Rule::BlockPedName));
    assert!(fires(
        &check(&file("other"), "demo.ifp"),
        Rule::BlockNameMismatchLoose
    ));
    assert!(!fires(
        &check(&file("DEMO"), "demo.ifp"),
        Rule::BlockNameMismatchLoose
    ));
    let long = check(&file(&"b".repeat(16)), "x.ifp");
    let rule = long
        .iter()
        .find(|f| f.rule == Rule::BlockNameTooLong)
        .unwrap();
    assert_eq!(
        rule.games,
        Games::SA,
        "16 characters are too long for SA only"
    );
    assert!(!fires(
        &check(&file(&"b".repeat(15)), "x.ifp"),
        Rule::BlockNameTooLong
    ));
}

/// A VER2 archive of these entries (name, content), each in its own sectors.
fn img(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let sectors = |n: usize| n.div_ceil(2048).max(1);
    let mut out = vec![0u8; 2048];
    out[..4].copy_from_slice(b"VER2");
    out[4..8].copy_from_slice(&(entries.len() as u32).to_le_bytes());
    let mut at = 1;
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

#[test]
fn archive_rules() {
    let block = |name: &str| {
        FileSpec::anp3(name, vec![AnimSpec::new("walk", vec![packed(&[0, 5])])]).build()
    };
    let found = check_archive(&img(&[("walk.ifp", &block("other"))]));
    let mismatch = found
        .iter()
        .find(|f| f.rule == Rule::BlockNameMismatch)
        .unwrap();
    assert_eq!(mismatch.context.entry.unwrap().name.as_bytes(), b"walk.ifp");
    assert_eq!(mismatch.offset, 2048, "absolute: the entry's first byte");
    assert!(!fires(
        &check_archive(&img(&[("walk.ifp", &block("walk"))])),
        Rule::BlockNameMismatch
    ));

    let dup = check_archive(&img(&[("a.dff", b"x"), ("A.DFF", b"y")]));
    assert!(fires(&dup, Rule::Img2Duplicate));
    assert!(!fires(
        &check_archive(&img(&[("a.dff", b"x"), ("b.dff", b"y")])),
        Rule::Img2Duplicate
    ));
    let col = check_archive(&img(&[("a.col", b"x"), ("a.col", b"y")]));
    assert!(fires(&col, Rule::Img2ColNoDedupe));

    assert!(fires(
        &check_archive(&img(&[("nodot", b"x")])),
        Rule::Img2NameRules
    ));
    assert!(fires(
        &check_archive(&img(&[("a.xyz", b"x")])),
        Rule::Img2ExtKinds
    ));
    assert!(!fires(
        &check_archive(&img(&[("a.txd", b"x")])),
        Rule::Img2ExtKinds
    ));
    assert!(fires(
        &check_archive(&img(&[("nodes64.dat", b"x")])),
        Rule::Img2DatName
    ));
    assert!(!fires(
        &check_archive(&img(&[("nodes63.dat", b"x")])),
        Rule::Img2DatName
    ));
    let long = format!("{}.col", "c".repeat(18));
    assert!(fires(
        &check_archive(&img(&[(&long, b"x")])),
        Rule::Img2SlotNameLen
    ));
    assert!(!fires(
        &check_archive(&img(&[(&long[1..], b"x")])),
        Rule::Img2SlotNameLen
    ));

    let mut second = img(&[("a.dff", b"x")]);
    second[14..16].copy_from_slice(&1u16.to_le_bytes());
    assert!(fires(&check_archive(&second), Rule::Img2SizeField));
    second[14..16].copy_from_slice(&2u16.to_le_bytes());
    assert!(fires(
        &check_archive(&second),
        Rule::Img2StreamBufferOverflow
    ));
    assert!(!fires(
        &check_archive(&img(&[("a.dff", b"x")])),
        Rule::Img2SizeField
    ));

    let mut overlap = img(&[("a.dff", b"x"), ("b.dff", b"y")]);
    overlap[40..44].copy_from_slice(&1u32.to_le_bytes());
    assert!(fires(&check_archive(&overlap), Rule::Img2DataOverlap));
    assert!(!fires(
        &check_archive(&img(&[("a.dff", b"x"), ("b.dff", b"y")])),
        Rule::Img2DataOverlap
    ));

    let mut zero = img(&[("a.dff", b"x")]);
    zero[12..14].copy_from_slice(&0u16.to_le_bytes());
    assert!(fires(&check_archive(&zero), Rule::Img2ZeroSize));
}

fn ipl(text: &str) -> Vec<Finding> {
    check(text.as_bytes(), "demo.ipl")
}

#[test]
fn text_ipl_rules() {
    let sa = |fields: &str| format!("inst\n{fields}\nend\n");
    let good = "1, name, 0, 0, 0, 0, 0, 0, 0, 1, -1";
    assert!(errors(&ipl(&sa(good))).is_empty(), "{:?}", ipl(&sa(good)));
    assert!(fires(
        &ipl(&sa("20000, name, 0, 0, 0, 0, 0, 0, 0, 1, -1")),
        Rule::IplsaInstIdRange
    ));
    assert!(!fires(
        &ipl(&sa("19999, name, 0, 0, 0, 0, 0, 0, 0, 1, -1")),
        Rule::IplsaInstIdRange
    ));
    let lod = ipl(&sa("1, name, 0, 0, 0, 0, 0, 0, 0, 1, 1"));
    let f = lod.iter().find(|f| f.rule == Rule::IplsaLodRange).unwrap();
    assert_eq!(f.context.line, Some(2));
    assert!(!fires(
        &ipl(&sa("1, name, 0, 0, 0, 0, 0, 0, 0, 1, 0")),
        Rule::IplsaLodRange
    ));
    assert!(fires(
        &ipl(&sa("1, name, 0, 3000, 0, 0, 0, 0, 0, 1, -1")),
        Rule::IplsaPosOffMap
    ));
    assert!(!fires(
        &ipl(&sa("1, name, 0, 2999, 0, 0, 0, 0, 0, 1, -1")),
        Rule::IplsaPosOffMap
    ));
    assert!(fires(
        &ipl(&format!("inst\n{good}\n")),
        Rule::IplsaMissingEnd
    ));
    assert!(fires(
        &ipl(&format!("inst\n{good}\ncars\nend\n")),
        Rule::IplsaMissingEnd
    ));
    let name = format!("1, {}, 0, 0, 0, 0, 0, 0, 0, 1, -1", "n".repeat(24));
    assert!(fires(&ipl(&sa(&name)), Rule::IplsaInstNameLen));
    assert!(fires(
        &ipl(&format!("inst\n{good}\nend\nzzzz\nend\n")),
        Rule::IplsaSections
    ));
    assert!(!fires(
        &ipl(&format!("inst\n{good}\nend\ncull\nend\n")),
        Rule::IplsaSections
    ));
    assert!(fires(
        &ipl(&format!("inst\n{good}\nend\npath\n1, 2\nend\n")),
        Rule::IplsaPathStops
    ));
    // III: 12 fields; the world ends at 2000.
    let iii = |x: &str| format!("inst\n1, name, {x}, 0, 0, 1, 1, 1, 0, 0, 0, 1\nend\n");
    assert!(fires(&ipl(&iii("2000")), Rule::Ipl3InstOutsideWorld));
    assert!(!fires(&ipl(&iii("1999")), Rule::Ipl3InstOutsideWorld));
    assert!(
        !fires(&ipl(&iii("2000")), Rule::IplsaPosOffMap),
        "a III file is not an SA one"
    );
}

#[test]
fn anpk_rules() {
    let k000 = testkit::anpk::with_empty_chunks(b"K000", true);
    let plain = testkit::anpk::bytes(&testkit::anpk::mixed());
    let name = "demo.ifp";
    assert!(fires(&check(&k000, name), Rule::AnpkKfrmOnZeroFrames));
    assert!(!fires(&check(&plain, name), Rule::AnpkKfrmOnZeroFrames));
}

#[test]
fn shipped_shapes_give_no_error() {
    let walk = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/samples/walk.ifp")).unwrap();
    assert_eq!(errors(&check(&walk, "walk.ifp")), Vec::<String>::new());
    // A stock ped.ifp's shape: block "ped", many packed animations, the compressed flag set.
    let animations = (0..300)
        .map(|i| {
            let bones = (0..16)
                .map(|b| {
                    BoneSpec::new(
                        &format!("bone{b}"),
                        3 + (b == 0) as u32,
                        b,
                        (0..8).map(|t| p3(Q, t * 4)).collect(),
                    )
                })
                .collect();
            AnimSpec::new(&format!("anim{i}"), bones)
        })
        .collect();
    let ped = FileSpec::anp3("ped", animations).build();
    assert_eq!(errors(&check(&ped, "ped.ifp")), Vec::<String>::new());
    assert_eq!(
        errors(&check_archive(&img(&[("ped.ifp", &ped)]))),
        Vec::<String>::new()
    );
}

/// The findings of every 2-way split, and byte by byte, are those of the whole file.
#[test]
fn findings_do_not_depend_on_the_cuts() {
    let file = anp3(vec![
        AnimSpec::new("walk", vec![packed(&[5, 5, 3, 1])]).flags(0),
        AnimSpec::new("WALK", vec![packed(&[0])]),
    ]);
    let run = |cut: &Cut| {
        let mut found = Vec::new();
        let mut checker = Checker::new(Games::ALL, |f: &Finding| found.push(*f));
        checker.set_file_name(b"x.ifp");
        let mut decoder = Decoder::new();
        let (mut at, mut turn) = (0, 0);
        while at < file.len() {
            let end = cut.end(at, turn, file.len());
            let mut piece = &file[at..end];
            while !piece.is_empty() {
                let progress = decoder.feed(piece, &mut checker).unwrap();
                piece = &piece[progress.consumed..];
                at += progress.consumed;
            }
            turn += 1;
        }
        decoder.finish(&mut checker).unwrap();
        checker.finish();
        found
    };
    let whole = run(&Cut::Whole);
    assert!(whole.len() >= 5, "{whole:?}");
    assert_eq!(run(&Cut::bytewise()), whole);
    for cut in Cut::every_split(file.len()) {
        assert_eq!(run(&cut), whole, "{cut:?}");
    }
}

/// docs/CHECKS.md is the table, rendered; `GTASTREAM_BLESS=1` rewrites it.
#[test]
fn checks_md_lists_the_table() {
    let mut md = String::from(
        "# The rules of `gtastream check`\n\n\
         Generated from the table in src/check/rules.rs (a test holds this file to it: run it\n\
         with `GTASTREAM_BLESS=1` to rewrite). The ids are stable; the sources are those of\n\
         ENGINE-RULES.md (GR: gta-reversed, III: re3, VC: reVC, MTA: mtasa-blue). Levels:\n\
         **error**, the game crashes or corrupts memory; **warning**, it loads the file but not\n\
         as meant (or the rule rests on unconfirmed code: GR-docs); **note**, it skips something.\n\n\
         | Rule | Games | Engine | Level | Reason | Source |\n|---|---|---|---|---|---|\n",
    );
    for rule in Rule::ALL {
        md.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} |\n",
            rule.id(),
            rule.games(),
            rule.engine().name(),
            rule.level().name(),
            rule.reason().replace('|', "\\|"),
            rule.source().replace('|', "\\|"),
        ));
    }
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/CHECKS.md");
    if std::env::var_os("GTASTREAM_BLESS").is_some() {
        std::fs::write(path, &md).unwrap();
    }
    assert_eq!(
        std::fs::read_to_string(path).unwrap_or_default(),
        md,
        "docs/CHECKS.md is stale"
    );
}

//! `check` and `convert` print findings people can read (issue 30): one line per rule found
//! many times, a summary line, `--level`, `--all`, and JSON that keeps every finding with the
//! same groups and counts.

#[allow(dead_code)]
mod support;

use std::path::PathBuf;

use support::{run, stderr, stdout, Json};
use testkit::stock::{sa_ped, sa_ped_repeats, SA_PED_ANIMATIONS};

/// The stock-shaped San Andreas `ped.ifp`, written as `ped.ifp` in a directory of `dir`'s name.
fn stock_ped(dir: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("ped.ifp");
    std::fs::write(&path, sa_ped().build()).unwrap();
    path.to_str().unwrap().to_owned()
}

fn repeats() -> usize {
    (0..SA_PED_ANIMATIONS).map(sa_ped_repeats).sum()
}

#[test]
fn check_on_a_stock_shaped_ped_prints_at_most_40_lines() {
    let ped = stock_ped("readable-check");
    let out = run(&["check", &ped]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() <= 40, "{} lines:\n{text}", lines.len());
    // The repeated keys: one note line with the count and the animations.
    let expected = format!("{} times in {SA_PED_ANIMATIONS} animations", repeats());
    let grouped: Vec<&&str> = lines
        .iter()
        .filter(|l| l.contains("ifp.time.duplicate"))
        .collect();
    assert_eq!(grouped.len(), 1, "{text}");
    assert!(grouped[0].contains(&expected), "{}", grouped[0]);
    assert!(
        grouped[0].contains(": note ifp.time.duplicate"),
        "{}",
        grouped[0]
    );
    assert!(grouped[0].contains("first at "), "{}", grouped[0]);
    // The summary line comes last, by level and by game.
    let summary = lines.last().unwrap();
    assert!(
        summary.starts_with(&format!("{ped}: 0 errors, ")),
        "{summary}"
    );
    assert!(
        summary.contains(&format!("{} notes", repeats())),
        "{summary}"
    );
    assert!(summary.contains("(sa: 0 errors"), "{summary}");
    assert!(summary.contains("; mta: "), "{summary}");
    assert!(summary.ends_with("), games from the file"), "{summary}");
    let named = run(&["check", "--game", "sa", &ped]);
    let named = stdout(&named).lines().last().unwrap();
    assert!(named.ends_with("), games named"), "{named}");
    assert!(!named.contains("mta"), "{named}");

    // --all: every finding of the rule, one line each.
    let all = run(&["check", "--all", &ped]);
    let all_text = stdout(&all);
    let each = all_text
        .lines()
        .filter(|l| l.contains("ifp.time.duplicate"))
        .count();
    assert_eq!(each, repeats());
    assert!(all_text.lines().count() > 40);

    // --level warning: no note line, the same summary.
    let warnings = run(&["check", "--level", "warning", &ped]);
    let warning_text = stdout(&warnings);
    assert!(!warning_text.contains(": note "), "{warning_text}");
    assert_eq!(warning_text.lines().last(), Some(*summary));
}

#[test]
fn json_keeps_every_finding_and_gives_the_groups_and_summary() {
    let ped = stock_ped("readable-json");
    let out = run(&["check", "--json", "--level", "error", &ped]);
    let doc = Json::parse(stdout(&out)).unwrap();
    let input = &doc.get("inputs").arr()[0];
    let findings = input.get("findings").arr();
    let duplicates: Vec<usize> = findings
        .iter()
        .enumerate()
        .filter(|(_, f)| f.get("rule").str() == "ifp.time.duplicate")
        .map(|(i, _)| i)
        .collect();
    assert_eq!(duplicates.len(), repeats());
    let groups = input.get("groups").arr();
    let group = groups
        .iter()
        .find(|g| g.get("rule").str() == "ifp.time.duplicate")
        .unwrap();
    assert_eq!(group.get("count").i64() as usize, repeats());
    assert_eq!(group.get("animations").i64() as usize, SA_PED_ANIMATIONS);
    assert_eq!(group.get("entries").i64(), 0);
    assert_eq!(group.get("first").i64() as usize, duplicates[0]);
    assert_eq!(*group.get("listed"), Json::Bool(false));
    assert_eq!(group.get("severity").str(), "note");
    let counted: i64 = groups.iter().map(|g| g.get("count").i64()).sum();
    assert_eq!(counted as usize, findings.len());
    let summary = input.get("summary");
    let notes = findings
        .iter()
        .filter(|f| f.get("severity").str() == "note")
        .count();
    assert_eq!(summary.get("notes").i64() as usize, notes);
    assert_eq!(summary.get("errors").i64(), 0);
    let sa = summary.get("games").get("sa");
    assert_eq!(sa.get("notes").i64() as usize, notes);
    assert_eq!(summary.get("games").get("iii").get("notes").i64(), 0);
}

#[test]
fn convert_prints_the_summary_and_no_notes() {
    let ped = stock_ped("readable-convert");
    let written = ped.replace("ped.ifp", "out/ped.ifp");
    std::fs::create_dir_all(PathBuf::from(&written).parent().unwrap()).unwrap();
    // Written back to its own format, then to ANPK.
    for to in ["anp3", "anpk"] {
        let out = run(&["convert", "--game", "sa", "--to", to, &ped, &written]);
        assert!(out.status.success(), "{}", stderr(&out));
        let text = stderr(&out);
        assert!(!text.contains(": note "), "{text}");
        assert!(text.lines().count() <= 10, "{text}");
        let summary = text.lines().last().unwrap_or_default();
        assert!(
            summary.starts_with(&format!("gtastream: {written}: 0 errors, "))
                && summary.contains("(sa: "),
            "{text}"
        );
        assert!(summary.contains(" notes"), "{summary}");
    }
}

/// `check` names the archive to the checker: the IFPs of `cuts.img` are checked by the
/// cutscene loader's rule (issue 30), those of another archive by the streaming one; alone or
/// as `ARCHIVE:ENTRY`.
#[test]
fn a_cutscene_archive_gets_the_cutscene_rule() {
    use testkit::ifp2::{AnimSpec, BoneSpec, FileSpec};
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("readable-cuts");
    std::fs::create_dir_all(&dir).unwrap();
    let bone = BoneSpec::packed("Root", &[0, 5]);
    let ifp = FileSpec::anp3("other", vec![AnimSpec::new("intro", vec![bone])]).build();
    let img = testkit::img::Img::in_order(&[("intro.ifp", ifp)]).v2();
    for (name, rule) in [
        ("cuts.img", "ifp.cutscene.block_name"),
        ("gta3.img", "ifp.block.name_mismatch"),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, &img).unwrap();
        let path = path.to_str().unwrap();
        // Alone, an entry of another archive is checked as a file of its name.
        let alone = match rule {
            "ifp.cutscene.block_name" => rule,
            _ => "ifp.block.name_mismatch_file",
        };
        for (input, rule) in [
            (path.to_owned(), rule),
            (format!("{path}:intro.ifp"), alone),
        ] {
            let out = run(&["check", "--all", &input]);
            let text = stdout(&out);
            let rules: Vec<&str> = text
                .lines()
                .filter_map(|l| l.split_whitespace().nth(2))
                .filter(|r| r.starts_with("ifp."))
                .collect();
            assert_eq!(rules, [rule], "{input}: {text}");
        }
    }
}

/// Issue 30's guarantee: every stock-shaped file gives no error-level finding by default, in
/// the text and the JSON, and the games come from the file.
#[test]
fn stock_shaped_files_give_no_error_by_default() {
    use testkit::stock;
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("readable-stock");
    std::fs::create_dir_all(&dir).unwrap();
    let mut files: Vec<(String, Vec<u8>, &[&str])> = vec![
        ("ped.ifp".into(), sa_ped().build(), &["sa", "mta"]),
        ("vc/ped.ifp".into(), stock::vc_ped(), &["vc", "sa", "mta"]),
        ("iii/ped.ifp".into(), stock::iii_ped(), &["iii"]),
        ("gta3.img".into(), stock::sa_gta3_img(), &["sa"]),
        ("cuts.img".into(), stock::cuts_img(), &["sa"]),
    ];
    for name in stock::SA_STREAM_NAMES {
        files.push((format!("stream/{name}"), stock::sa_stream_ipl(40), &["sa"]));
    }
    for (name, bytes, games) in &files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, bytes).unwrap();
        let path = path.to_str().unwrap();
        let out = run(&["check", "--level", "error", path]);
        let text = stdout(&out);
        assert_eq!(out.status.code(), Some(0), "{name}: {text}{}", stderr(&out));
        assert_eq!(text.lines().count(), 1, "{name}: {text}");
        assert!(text.starts_with(&format!("{path}: 0 errors, ")), "{text}");
        assert!(text.trim_end().ends_with("games from the file"), "{text}");
        let doc = Json::parse(stdout(&run(&["check", "--json", path]))).unwrap();
        let input = &doc.get("inputs").arr()[0];
        assert_eq!(input.get("summary").get("errors").i64(), 0, "{name}");
        let checked: Vec<&str> = input.get("games").arr().iter().map(|g| g.str()).collect();
        assert_eq!(checked, *games, "{name}");
        assert_eq!(input.get("games_from").str(), "file", "{name}");
    }
    // The same stream IPL under a name without `_stream`: its LOD indexes have no parent.
    let lone = dir.join("lae.ipl");
    std::fs::write(&lone, stock::sa_stream_ipl(4)).unwrap();
    let out = run(&["check", lone.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("error bnry.lod.no_parent"),
        "{}",
        stdout(&out)
    );
    // The cutscene archive's camera files are no streamed .dat: no warning either.
    let cuts_path = dir.join("cuts.img");
    let out = run(&["check", "--level", "warning", cuts_path.to_str().unwrap()]);
    assert_eq!(stdout(&out).lines().count(), 1, "{}", stdout(&out));
    assert!(
        stdout(&out).contains(": 0 errors, 0 warnings"),
        "{}",
        stdout(&out)
    );
    // A cutscene archive's IFP named after another cutscene: the cutscene loader's rule.
    let mut cuts = stock::cuts_img();
    let at = cuts.windows(6).position(|w| w == b"RYDER2").unwrap();
    cuts[at..at + 6].copy_from_slice(b"RYDER3");
    let path = dir.join("cuts.img");
    std::fs::write(&path, &cuts).unwrap();
    let out = run(&["check", path.to_str().unwrap()]);
    let text = stdout(&out);
    assert!(
        text.contains(":ryder2.ifp: error ifp.cutscene.block_name"),
        "{text}"
    );
    assert!(!text.contains("ifp.block.name_mismatch"), "{text}");
}

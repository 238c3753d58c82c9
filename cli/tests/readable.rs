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

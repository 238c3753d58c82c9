//! `gtastream check DIR`: whole folders built in code, as a user runs the command.

#[allow(dead_code)]
mod support;

use support::{run, stderr, stdout, Json};
use testkit::folder::san_andreas;
use testkit::img::Img;

#[test]
fn stock_folder_loads() {
    let folder = san_andreas("cli-stock", "");
    let dir = folder.root.to_str().unwrap();
    let out = run(&["check", dir]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    let text = stdout(&out);
    assert!(text.contains(&format!("{dir}: 0 errors")), "{text}");
    assert!(
        text.contains("7 files, 10 archive entries, game from the folder"),
        "{text}"
    );
    assert!(
        text.ends_with(&format!("{dir}: sa: loads: no error finding\n")),
        "{text}"
    );
}

#[test]
fn findings_name_the_file_line_entry_and_other_file() {
    let folder = san_andreas("cli-mod", "IMG MODELS\\MOD.IMG\r\n");
    folder.write(
        "models/mod.img",
        &Img::default().add("lae_road.dff", b"x").v2(),
    );
    let mut img = Img::default();
    img.add("lae_stream0.ipl", &testkit::folder::stream_ipl(4000, &[7]))
        .add("lae_road.dff", b"d");
    folder.write("models/gta3.img", &img.v2());
    let dir = folder.root.to_str().unwrap();
    let out = run(&["check", dir]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    let text = stdout(&out);
    assert!(
        text.contains(&format!(
            "{dir}/MODELS\\MOD.IMG:lae_road.dff: warning mod.name.shadowed (sa) at 2048: "
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("; other file: {dir}/models/gta3.img\n")),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "{dir}/models/gta3.img:lae_stream0.ipl: error mod.stream.lod_range (sa) at 2124: "
        )),
        "{text}"
    );
    assert!(text.contains("(value 7, limit 4); other file: "), "{text}");
    assert!(
        text.contains(&format!("{dir}: mod.stream.lod_range error: 1 (1 time)\n")),
        "{text}"
    );
    assert!(text.contains(&format!("{dir}: sa: fails")), "{text}");

    let out = run(&["check", "--json", dir]);
    assert_eq!(out.status.code(), Some(1));
    let json = Json::parse(stdout(&out)).expect("JSON");
    let input = &json.get("inputs").arr()[0];
    assert_eq!(input.get("format").str(), "DIR");
    assert_eq!(input.get("verdict").str(), "fails");
    assert_eq!(input.get("games").arr()[0].str(), "sa");
    let shadow = input
        .get("findings")
        .arr()
        .iter()
        .find(|f| f.get("rule").str() == "mod.name.shadowed")
        .unwrap();
    assert_eq!(shadow.get("path").str(), "MODELS\\MOD.IMG");
    assert_eq!(shadow.get("other").str(), "models/gta3.img");
    assert_eq!(shadow.get("entry").str(), "lae_road.dff");
    assert_eq!(shadow.get("line"), &Json::Null);
}

#[test]
fn game_and_base() {
    let folder = san_andreas("cli-game", "");
    folder.write("data/gta3.dat", b"");
    let dir = folder.root.to_str().unwrap();
    let out = run(&["check", dir]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--game"), "{}", stderr(&out));
    let out = run(&["check", "--game", "sa", dir]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("game named"));
    let out = run(&["check", "--game", "sa", "--game", "vc", dir]);
    assert_eq!(out.status.code(), Some(2));

    let game = san_andreas("cli-base", "IMG MODELS\\MOD.IMG\r\n");
    let mod_folder = testkit::folder::Folder::new("cli-base-mod");
    mod_folder.write("models/mod.img", &Img::default().add("new.dff", b"x").v2());
    let out = run(&[
        "check",
        "--base",
        game.root.to_str().unwrap(),
        mod_folder.root.to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
}

//! IDE files (docs/FORMATS.md §12) in the shapes real ones have, built in code: each game's
//! layouts of every section, and what editors and hand edits leave in them (tabs, inline
//! comments, CRLF and CR CR LF, `' ,'` separators, no final newline, a missing or stray
//! `end`, definitions before any section, a section no game knows).

/// San Andreas: the short `objs`/`tobj` layouts, `anim`, a `weap` line with San Andreas'
/// extra field, `hier`, `cars` and `peds` of every field, `txdp`, `2dfx`, `path`; CRLF.
pub fn sa() -> Vec<u8> {
    crlf(
        "# San Andreas\n\
         objs\n\
         615, veg_tree3, gta_tree_boak, 300, 2097152\n\
         1337, box, generic, 100, 0\n\
         end\n\
         tobj\n\
         3000, nitelite, nitelite_txd, 150, 0, 20, 6\n\
         end\n\
         anim\n\
         3394, kmb_container_red, kmb_container, container_anim, 150, 0\n\
         end\n\
         weap\n\
         321, gun_dildo1, gun_dildo1, null, 1, 50, 0\n\
         end\n\
         hier\n\
         3092, dead_tied_cop, dead_tied_cop\n\
         end\n\
         cars\n\
         400, landstal, landstal, car, LANDSTAL, LANDSTK, null, richfamily, 10, 7, 0, 0, 0.68, 0.68, -1\n\
         end\n\
         peds\n\
         7, male01, male01, CIVMALE, STAT_STREET_GUY, man, 1FF, 0, null, 9, 9, PED_TYPE_GEN, VOICE_GEN_MALE01, VOICE_GEN_MALE01\n\
         end\n\
         txdp\n\
         gta_tree_boak, gta_tree_parent\n\
         end\n\
         2dfx\n\
         end\n\
         path\n\
         end\n",
    )
}

/// Vice City: the mesh-count layouts (one and two meshes), `weap`, `cars`, `peds`, a `path`
/// group (its header and 12 nodes) and a `2dfx` light; LF.
pub fn vc() -> Vec<u8> {
    let mut text = String::from(
        "objs\n\
         100, lamppost1, lamppost, 1, 100, 0\n\
         101, bar_gatebar01, bar_gate, 2, 30, 120, 4\n\
         end\n\
         tobj\n\
         102, neon01, neon, 1, 300, 0, 20, 6\n\
         end\n\
         weap\n\
         259, brassknuckle, brassknuckle, unarmed, 1, 50, 0\n\
         end\n\
         cars\n\
         130, landstal, landstal, car, LANDSTAL, LANDSTAL, richfamily, 10, 7, 0, 250, 0.7\n\
         end\n\
         peds\n\
         9, cop, cop, COP, STAT_COP, man, 0, null, 9, 9\n\
         end\n\
         path\n\
         1, 100, lamppost1\n",
    );
    for node in 0..12 {
        text.push_str(&format!("\t1, {}, 0, 0, {node}0, 0, 1, 1, 1\n", node + 1));
    }
    text.push_str(
        "end\n\
         2dfx\n\
         100, 0, 0, 5, 255, 255, 255, 200, 0, \"coronastar\", \"shad_exp\", 40, 0, 0, 0, 0\n\
         end\n",
    );
    text.into_bytes()
}

/// GTA III: tab separated, three meshes, `hier`, a pedestrian line with the seven fields the
/// game needs and one without them (which it skips); CR CR LF line breaks.
pub fn gta3() -> Vec<u8> {
    "objs\n\
     200\tbench\tgeneric\t3\t20\t50\t150\t0\n\
     end\n\
     hier\n\
     201\tdoor_l\tgeneric\n\
     end\n\
     peds\n\
     1\tcop\tcop\tCOP\tSTAT_COP\tman\t7F\n\
     2\tgang01\tgang01\tGANG1\n\
     end\n"
        .replace('\n', "\r\r\n")
        .into_bytes()
}

/// Hand edits: `' ,'` separators and blanks before a section name, an inline comment, a
/// definition before any section, a section no game knows, a stray `end`, a line the game
/// cannot read (no distance), blank lines, and the last section left open without a final
/// newline.
pub fn quirks() -> Vec<u8> {
    b"1500 , early , generic , 100 , 0\n\
      \n\
      \t objs\n\
      1501 , box , generic , 100 , 0   # a box\n\
      1502, quad, generic\n\
      end\n\
      end\n\
      mlox\n\
      one, two\n\
      end\n\
      hier\n\
      1503, last, generic"
        .to_vec()
}

/// Every shape, named.
pub fn shapes() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("sa", sa()),
        ("vc", vc()),
        ("gta3", gta3()),
        ("quirks", quirks()),
    ]
}

fn crlf(text: &str) -> Vec<u8> {
    text.replace('\n', "\r\n").into_bytes()
}

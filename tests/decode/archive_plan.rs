//! The plan of an archive edit (`archive::plan`), apart from any file: which entries the new
//! archive holds, from where and in what order, the report, and the refusals (the JavaScript
//! package carries these plans out in memory, `archive::edit` on disk).
#![cfg(feature = "alloc")]

use gtastream::archive::plan::{EditPlan, PlanError, Source};
use gtastream::archive::ArchiveWriteErrorKind;

const OLD: [&[u8]; 4] = [b"ped.ifp", b"gta3.ipl", b"model.dff", b"PED.IFP"];

fn name_error(result: Result<EditPlan, PlanError>) -> (ArchiveWriteErrorKind, u32, Vec<u8>) {
    match result {
        Err(PlanError::Name(e)) => (e.kind, e.index, e.name().to_vec()),
        other => panic!("not a name error: {other:?}"),
    }
}

#[test]
fn create_takes_the_entries_in_order() {
    let plan = EditPlan::create(&[b"a.ifp", b"b.txt"]).unwrap();
    assert_eq!(plan.entries, [Source::New(0), Source::New(1)]);
    assert_eq!((plan.report.entries, plan.report.added), (2, 2));
    assert_eq!(
        plan.report.kept + plan.report.replaced + plan.report.removed,
        0
    );
    assert_eq!(EditPlan::create::<&[u8]>(&[]).unwrap().entries, []);
}

#[test]
fn add_replaces_the_first_of_a_name_in_its_place_and_appends_the_rest() {
    let plan = EditPlan::add(&OLD, &[&b"new.txt"[..], b"MODEL.DFF", b"Ped.Ifp"]).unwrap();
    // The first entry of a name (ASCII case aside) is replaced; a later one of the same name is
    // kept, as the games find the first.
    let expected = [
        Source::New(2),
        Source::Old(1),
        Source::New(1),
        Source::Old(3),
        Source::New(0),
    ];
    assert_eq!(plan.entries, expected);
    let r = &plan.report;
    assert_eq!(
        (r.entries, r.kept, r.replaced, r.added, r.removed),
        (5, 2, 2, 1, 0)
    );
}

#[test]
fn remove_drops_every_entry_of_each_name() {
    let plan = EditPlan::remove(&OLD, &[&b"Ped.ifp"[..]]).unwrap();
    assert_eq!(plan.entries, [Source::Old(1), Source::Old(2)]);
    assert_eq!((plan.report.kept, plan.report.removed), (2, 2));
    assert_eq!(
        EditPlan::remove(&OLD, &[&b"gta3.ipl"[..], b"missing.col"]),
        Err(PlanError::NoSuchEntry(1))
    );
}

#[test]
fn rebuild_keeps_every_entry_in_order() {
    let plan = EditPlan::rebuild(3);
    assert_eq!(
        plan.entries,
        [Source::Old(0), Source::Old(1), Source::Old(2)]
    );
    assert_eq!((plan.report.entries, plan.report.kept), (3, 3));
}

#[test]
fn new_names_are_checked_and_given_once() {
    let refused = [
        (&b""[..], ArchiveWriteErrorKind::EmptyName),
        (
            b"abcdefghijklmnopqrst.ifp",
            ArchiveWriteErrorKind::NameTooLong,
        ),
        (b"noextension", ArchiveWriteErrorKind::InvalidName),
        (b"a/b.ifp", ArchiveWriteErrorKind::InvalidName),
        (b"OK.TXT", ArchiveWriteErrorKind::DuplicateName),
    ];
    for (name, kind) in refused {
        let new = [&b"ok.txt"[..], name];
        assert_eq!(name_error(EditPlan::create(&new)), (kind, 1, name.to_vec()));
        assert_eq!(
            name_error(EditPlan::add(&OLD, &new)),
            (kind, 1, name.to_vec())
        );
    }
    // The old archive's names are not checked: an entry the games skip is kept.
    let plan = EditPlan::add(&[&b"noextension"[..]], &[&b"a.txt"[..]]).unwrap();
    assert_eq!(plan.entries, [Source::Old(0), Source::New(0)]);
}

#[test]
fn the_first_refusal_in_the_order_given_is_reported() {
    let kinds = |new: &[&[u8]]| {
        let (kind, index, _) = name_error(EditPlan::create(new));
        (kind, index)
    };
    use ArchiveWriteErrorKind::{DuplicateName, InvalidName};
    assert_eq!(kinds(&[b"a.x", b"b.x", b"B.X", b"A.X"]), (DuplicateName, 2));
    assert_eq!(kinds(&[b"a.x", b"bad", b"A.x"]), (InvalidName, 1));
    assert_eq!(kinds(&[b"a.x", b"A.x", b"bad"]), (DuplicateName, 1));
    assert_eq!(kinds(&[b"bad", b"bad"]), (InvalidName, 0));
}

/// Names with many spellings of few names (ASCII case aside), and some of their own.
fn spellings(count: usize, seed: u32) -> Vec<Vec<u8>> {
    let mut state = seed;
    (0..count)
        .map(|_| {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let word = [
                b'a' + (state >> 16) as u8 % 4,
                b'a' + (state >> 20) as u8 % 4,
            ];
            let mut name: Vec<u8> = word
                .iter()
                .enumerate()
                .map(|(i, &c)| {
                    if state >> (24 + i) & 1 == 1 {
                        c.to_ascii_uppercase()
                    } else {
                        c
                    }
                })
                .collect();
            name.extend_from_slice(if state >> 28 & 1 == 1 {
                b".dff"
            } else {
                b".DFF"
            });
            name
        })
        .collect()
}

#[test]
fn plans_are_those_of_a_name_by_name_search() {
    let same = |a: &[u8], b: &[u8]| a.eq_ignore_ascii_case(b);
    for seed in 0..20 {
        let old = spellings(40, seed);
        let new = spellings(12, seed + 100);
        // Replace: the first old entry of each name; the others appended.
        let mut unique: Vec<Vec<u8>> = Vec::new();
        for name in &new {
            if !unique.iter().any(|u| same(u, name)) {
                unique.push(name.clone());
            }
        }
        let mut expected: Vec<Source> = (0..old.len()).map(Source::Old).collect();
        for (k, name) in unique.iter().enumerate() {
            match old.iter().position(|o| same(o, name)) {
                Some(i) => expected[i] = Source::New(k),
                None => expected.push(Source::New(k)),
            }
        }
        assert_eq!(EditPlan::add(&old, &unique).unwrap().entries, expected);
        // A name given twice: the second of the first name given again.
        let again = (0..new.len()).find(|&k| new[..k].iter().any(|e| same(e, &new[k])));
        let (kind, index, _) = name_error(EditPlan::create(&new));
        assert_eq!(
            (kind, Some(index as usize)),
            (ArchiveWriteErrorKind::DuplicateName, again)
        );
        // Remove: every entry of each name; the first name not there is named.
        let removed = EditPlan::remove(&old, &new);
        match new.iter().position(|n| !old.iter().any(|o| same(o, n))) {
            Some(missing) => assert_eq!(removed, Err(PlanError::NoSuchEntry(missing))),
            None => {
                let kept: Vec<Source> = (0..old.len())
                    .filter(|&i| !new.iter().any(|n| same(n, &old[i])))
                    .map(Source::Old)
                    .collect();
                assert_eq!(removed.unwrap().entries, kept);
            }
        }
    }
}

//! The plan of an archive edit, apart from any file: which entries the new archive holds, in
//! what order, each from the old archive or from the new entries given, and what the edit does
//! to the old ones (docs/FORMATS.md §5.5). [`edit`](super::edit) carries plans out on files;
//! the JavaScript package carries them out in memory.
//!
//! Names are compared as the games compare them (ASCII case aside). A new name must be one the
//! games read ([`super::check_entry_name`]) and be given once; the old
//! archive's names are kept as they are, even ones the games skip.

use alloc::vec::Vec;
use core::cmp::Ordering;

use super::{check_entry_name, same_entry_name, ArchiveWriteError, ArchiveWriteErrorKind};

/// Where an entry of the new archive comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The old archive's entry of this index (in directory order), copied unchanged.
    Old(usize),
    /// The new entry of this index among those given.
    New(usize),
}

/// What an edit did (or does, once its plan is written).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct EditReport {
    /// Entries of the new archive.
    pub entries: u32,
    /// Entries copied unchanged from the old archive.
    pub kept: u32,
    /// Entries replaced in their place.
    pub replaced: u32,
    /// Entries appended.
    pub added: u32,
    /// Entries removed.
    pub removed: u32,
    /// Bytes of the new `.img` (0 in a plan: known once written).
    pub img_len: u64,
}

/// Why an edit cannot be planned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlanError {
    /// A new entry's name: one the games do not read, or given twice (its index among the new
    /// entries).
    Name(ArchiveWriteError),
    /// A name to remove that the archive does not hold (its index among the names).
    NoSuchEntry(usize),
}

/// The new archive's entries, in order, and the report of the edit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditPlan {
    /// Each entry of the new archive, in directory order.
    pub entries: Vec<Source>,
    /// What the edit does.
    pub report: EditReport,
}

impl EditPlan {
    fn new(entries: Vec<Source>, report: EditReport) -> Self {
        let report = EditReport {
            entries: entries.len() as u32,
            ..report
        };
        EditPlan { entries, report }
    }

    /// A new archive of the `new` entries, in their order.
    pub fn create<N: AsRef<[u8]>>(new: &[N]) -> Result<EditPlan, PlanError> {
        check_new_names(new)?;
        let entries = (0..new.len()).map(Source::New).collect();
        let report = EditReport {
            added: new.len() as u32,
            ..EditReport::default()
        };
        Ok(EditPlan::new(entries, report))
    }

    /// The archive of `old` names with the `new` entries put in: a name already there (ASCII
    /// case aside) is replaced in its place (the first entry of that name), a new one appended
    /// after the last entry.
    pub fn add<O: AsRef<[u8]>, N: AsRef<[u8]>>(
        old: &[O],
        new: &[N],
    ) -> Result<EditPlan, PlanError> {
        check_new_names(new)?;
        let mut entries: Vec<Source> = (0..old.len()).map(Source::Old).collect();
        let mut report = EditReport::default();
        let by_name = ByName::new(old);
        for (k, name) in new.iter().enumerate() {
            match by_name.first(name.as_ref()) {
                Some(i) => {
                    entries[i] = Source::New(k);
                    report.replaced += 1;
                }
                None => {
                    entries.push(Source::New(k));
                    report.added += 1;
                }
            }
        }
        report.kept = old.len() as u32 - report.replaced;
        Ok(EditPlan::new(entries, report))
    }

    /// The archive of `old` names without every entry named by one of `names` (ASCII case
    /// aside); each name must be there.
    pub fn remove<O: AsRef<[u8]>, N: AsRef<[u8]>>(
        old: &[O],
        names: &[N],
    ) -> Result<EditPlan, PlanError> {
        let old_by_name = ByName::new(old);
        if let Some(missing) = names
            .iter()
            .position(|n| old_by_name.first(n.as_ref()).is_none())
        {
            return Err(PlanError::NoSuchEntry(missing));
        }
        let named = ByName::new(names);
        let entries: Vec<Source> = (0..old.len())
            .filter(|&i| named.first(old[i].as_ref()).is_none())
            .map(Source::Old)
            .collect();
        let report = EditReport {
            kept: entries.len() as u32,
            removed: (old.len() - entries.len()) as u32,
            ..EditReport::default()
        };
        Ok(EditPlan::new(entries, report))
    }

    /// The archive of `old_count` entries written anew, every entry kept in its order.
    pub fn rebuild(old_count: usize) -> EditPlan {
        let report = EditReport {
            kept: old_count as u32,
            ..EditReport::default()
        };
        EditPlan::new((0..old_count).map(Source::Old).collect(), report)
    }
}

/// Each new name is one the games read, and is given once: the first refusal in the order the
/// names are given.
fn check_new_names<N: AsRef<[u8]>>(new: &[N]) -> Result<(), PlanError> {
    let invalid = new
        .iter()
        .enumerate()
        .find_map(|(k, name)| check_entry_name(name.as_ref()).err().map(|kind| (k, kind)));
    // The first name given again: in name order, equal names sit together by index.
    let by_name = ByName::new(new);
    let again = by_name
        .order
        .windows(2)
        .filter(|pair| same_entry_name(new[pair[0]].as_ref(), new[pair[1]].as_ref()))
        .map(|pair| pair[1])
        .min()
        .map(|k| (k, ArchiveWriteErrorKind::DuplicateName));
    let first = match (invalid, again) {
        (Some(a), Some(b)) => Some(if a.0 <= b.0 { a } else { b }),
        (a, b) => a.or(b),
    };
    match first {
        Some((k, kind)) => Err(PlanError::Name(ArchiveWriteError::new(
            kind,
            k as u32,
            new[k].as_ref(),
        ))),
        None => Ok(()),
    }
}

/// Names ordered as the games compare them (ASCII case aside), so that a name is found in
/// `log n` comparisons, not `n`: an archive holds thousands of entries.
struct ByName<'a, N> {
    names: &'a [N],
    /// Indices into `names`, by name; equal names by index (the sort is stable).
    order: Vec<usize>,
}

impl<'a, N: AsRef<[u8]>> ByName<'a, N> {
    fn new(names: &'a [N]) -> Self {
        let mut order: Vec<usize> = (0..names.len()).collect();
        order.sort_by(|&a, &b| compare_names(names[a].as_ref(), names[b].as_ref()));
        ByName { names, order }
    }

    /// The index of the first of the names that is `name`.
    fn first(&self, name: &[u8]) -> Option<usize> {
        let at = self
            .order
            .partition_point(|&i| compare_names(self.names[i].as_ref(), name) == Ordering::Less);
        let i = *self.order.get(at)?;
        same_entry_name(self.names[i].as_ref(), name).then_some(i)
    }
}

/// An order of names in which two names are equal when [`same_entry_name`] takes them for one.
fn compare_names(a: &[u8], b: &[u8]) -> Ordering {
    a.iter()
        .map(u8::to_ascii_lowercase)
        .cmp(b.iter().map(u8::to_ascii_lowercase))
}

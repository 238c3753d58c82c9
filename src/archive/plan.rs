//! The plan of an archive edit, apart from any file: which entries the new archive holds, in
//! what order, each from the old archive or from the new entries given, and what the edit does
//! to the old ones (docs/FORMATS.md §5.5). [`edit`](super::edit) carries plans out on files;
//! the JavaScript package carries them out in memory.
//!
//! Names are compared as the games compare them (ASCII case aside). A new name must be one the
//! games read ([`check_entry_name`](super::check_entry_name)) and be given once; the old
//! archive's names are kept as they are, even ones the games skip.

use alloc::vec::Vec;

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
        for (k, name) in new.iter().enumerate() {
            match old
                .iter()
                .position(|o| same_entry_name(o.as_ref(), name.as_ref()))
            {
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
        let named = |entry: &O| {
            names
                .iter()
                .any(|n| same_entry_name(entry.as_ref(), n.as_ref()))
        };
        if let Some(missing) = names
            .iter()
            .position(|n| !old.iter().any(|o| same_entry_name(o.as_ref(), n.as_ref())))
        {
            return Err(PlanError::NoSuchEntry(missing));
        }
        let entries: Vec<Source> = (0..old.len())
            .filter(|&i| !named(&old[i]))
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

/// Each new name is one the games read, and is given once.
fn check_new_names<N: AsRef<[u8]>>(new: &[N]) -> Result<(), PlanError> {
    for (k, name) in new.iter().enumerate() {
        let name = name.as_ref();
        let kind = match check_entry_name(name) {
            Err(kind) => kind,
            Ok(()) if new[..k].iter().any(|e| same_entry_name(e.as_ref(), name)) => {
                ArchiveWriteErrorKind::DuplicateName
            }
            Ok(()) => continue,
        };
        return Err(PlanError::Name(ArchiveWriteError::new(
            kind, k as u32, name,
        )));
    }
    Ok(())
}

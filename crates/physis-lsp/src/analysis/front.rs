//! Checking a source for the language server through the front door `physis check` uses
//! (`physis_ir::front`): parse, check, and (when that finds no error) lower each model without
//! a grid, so what only lowering can see is reported with its code too; the checker's type of
//! every accepted expression node is kept for hover.

use physis_check::Checked;
use physis_check::modules::{ModuleFiles, NoFiles};
use physis_check::types::{TypeTable, check_source_with_types_in};

/// Check `source` as `physis check` does, with the type of every accepted expression node.
pub fn check(source: &str) -> (Checked, TypeTable) {
    check_in(source, &NoFiles)
}

/// [`check`], reading the module files its `open`s name from `files` (the folder of the
/// document, as `physis check` reads them beside the model file).
pub fn check_in(source: &str, files: &dyn ModuleFiles) -> (Checked, TypeTable) {
    let (checked, types) = check_source_with_types_in(source, files);
    let mut front = physis_ir::front::Checked::from_checked(checked, source.to_string(), "");
    front.lower_unless_grid();
    let diagnostics = front.all_diagnostics();
    let checked = Checked {
        program: front.program,
        diagnostics,
    };
    (checked, types)
}

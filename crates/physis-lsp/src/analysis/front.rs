//! The one front door of checking a source, shared by `physis check` and the language server:
//! parse, check, and (when that finds no error) lower each model without a grid, so what only
//! lowering can see is reported with its code too.

use physis_check::Checked;
use physis_check::types::{TypeTable, check_source_with_types};

/// Check `source` as `physis check` does, with the type of every accepted expression node.
pub fn check(source: &str) -> (Checked, TypeTable) {
    let (mut checked, types) = check_source_with_types(source);
    if !checked.has_errors() {
        // What only lowering can see (a velocity L never reads, a derived acceleration that
        // reads velocities under verlet, a derivative the rules cannot take, a derivation past
        // its size limit, a construct not built yet) is a model error too. A model with a grid
        // is not lowered, since lowering builds every node's arrays: what lowering refuses on
        // a grid the checker refuses itself (PH0120), so checking costs nothing per node.
        let mut more = Vec::new();
        for model in checked.program.models.iter().filter(|m| m.grid.is_none()) {
            if let Err(e) = physis_ir::lower_with_source(model, source) {
                more.push(e.to_diagnostic(model));
            }
        }
        checked.diagnostics.extend(more);
    }
    (checked, types)
}

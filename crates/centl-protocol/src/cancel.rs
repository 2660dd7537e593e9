//! [`CancelFlag`]: how a running request learns that its client cancelled it.
//!
//! The transport sets the flag (a JSON Lines `cancel` action naming the request's id, or an
//! MCP `notifications/cancelled`); the work reads it before an action starts and after every
//! `simulate` step, and stops with [`ProtocolError::Cancelled`]. Nothing else stops work early,
//! so a cancelled request stops within one step of bounded cost (every step is held to the bit
//! and work limits).

use crate::ProtocolError;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A shared flag: cloned into the transport and the running request.
#[derive(Clone, Debug, Default)]
pub struct CancelFlag(Arc<AtomicBool>);

impl CancelFlag {
    /// A flag nobody has set yet.
    pub fn new() -> Self {
        CancelFlag::default()
    }

    /// Asks the request holding this flag to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether [`CancelFlag::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// `Err(Cancelled { step })` once the flag is set.
    pub fn check(&self, step: u64) -> Result<(), ProtocolError> {
        if self.is_cancelled() {
            Err(ProtocolError::Cancelled { step })
        } else {
            Ok(())
        }
    }
}

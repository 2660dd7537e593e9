//! Version-1 action table of the exact engine, shared by the JSON Lines server and the MCP tool.
//!
//! Takes in one request — an action name and a JSON object of arguments whose exact numbers are
//! strings and whose quantities carry units — and hands on either a JSON result or a typed
//! [`ProtocolError`] with a stable snake_case code. The pipeline for one line is:
//!
//! 1. [`transport`] reads a line with a length cap;
//! 2. [`envelope`] parses it strictly ([`json`]) and checks `v`, `id`, `action`, `args`;
//! 3. [`table::dispatch`] finds the [`Action`] and checks the arguments' shape ([`schema`]);
//! 4. the action reads exact values ([`wire`]), calls the engine (`centl-physics`) and builds
//!    its result, holding every step to the [`Limits`];
//! 5. [`reply`] holds the result to the bit and reply-size limits before it is written.
//!
//! The MCP adapter in `centl-cli` calls [`dispatch`] directly: there is one evaluator.

pub mod actions;
pub mod budget;
pub mod cancel;
pub mod envelope;
mod error;
pub mod id;
pub mod json;
pub mod limits;
pub mod objects;
pub mod reply;
pub mod schema;
pub mod table;
pub mod transport;
pub mod wire;

pub use cancel::CancelFlag;
pub use envelope::{VERSION, evaluate, evaluate_cancellable, handle_line, response_line};
pub use error::{PROTOCOL_CODES, ProtocolError};
pub use id::RawId;
pub use limits::Limits;
pub use table::{Action, Args, dispatch, dispatch_cancellable, table};
pub use transport::{serve, serve_with_workers};

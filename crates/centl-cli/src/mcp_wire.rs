//! The MCP stdio transport: newline-delimited JSON-RPC messages, each read with a byte cap and
//! checked before rmcp sees it, so every line a client sends gets an answer.
//!
//! rmcp's own stdio codec drops what it cannot decode without a reply, and answers a known
//! method with bad params as an unknown method. Here a line that is not a message is answered
//! with the JSON-RPC error it deserves: -32700 for a line that is not JSON (malformed, empty,
//! not UTF-8, over the byte cap), -32600 for JSON that is not a request we take (a batch, a bad
//! id, nesting beyond the limit, a repeated member), -32602 for a known method whose params do
//! not fit. The error's `data.code` names the failure with the protocol's own codes.

use centl_protocol::json::parse_strict;
use centl_protocol::{Limits, ProtocolError, RawId};
use rmcp::RoleServer;
use rmcp::model::{
    CallToolRequestMethod, ClientRequest, CompleteRequestMethod, ConstString,
    GetPromptRequestMethod, InitializeResultMethod, JsonRpcMessage, ListPromptsRequestMethod,
    ListResourceTemplatesRequestMethod, ListResourcesRequestMethod, ListToolsRequestMethod,
    PingRequestMethod, ReadResourceRequestMethod, SetLevelRequestMethod, SubscribeRequestMethod,
    UnsubscribeRequestMethod,
};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::{Value, json};
use std::io;
use std::sync::Arc;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::{Mutex, mpsc};

/// JSON-RPC: the text is not JSON.
pub const PARSE_ERROR: i64 = -32700;
/// JSON-RPC: the JSON is not a request this server takes.
pub const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC: a known method with params that do not fit it.
pub const INVALID_PARAMS: i64 = -32602;

/// Levels the JSON-RPC envelope adds above the tool's `args` (message, params, arguments).
const ENVELOPE_DEPTH: usize = 3;

/// Methods rmcp knows: a request naming one of these that rmcp could only read as a custom
/// request had params that do not fit.
const KNOWN_METHODS: &[&str] = &[
    InitializeResultMethod::VALUE,
    PingRequestMethod::VALUE,
    ListToolsRequestMethod::VALUE,
    CallToolRequestMethod::VALUE,
    CompleteRequestMethod::VALUE,
    SetLevelRequestMethod::VALUE,
    GetPromptRequestMethod::VALUE,
    ListPromptsRequestMethod::VALUE,
    ListResourcesRequestMethod::VALUE,
    ListResourceTemplatesRequestMethod::VALUE,
    ReadResourceRequestMethod::VALUE,
    SubscribeRequestMethod::VALUE,
    UnsubscribeRequestMethod::VALUE,
];

/// What one input line is.
#[derive(Debug)]
pub enum Incoming {
    /// A message for rmcp.
    Message(Box<RxJsonRpcMessage<RoleServer>>),
    /// Not a message: the JSON-RPC error response to write back instead.
    Refused(Value),
}

/// The error response for `id` (compact JSON text, `null` when unknown).
fn refusal(id: &RawId, code: i64, message: &str, data: Value) -> Incoming {
    let id: Value = serde_json::from_str(id.as_str()).unwrap_or(Value::Null);
    Incoming::Refused(json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": code, "message": message, "data": data},
    }))
}

fn protocol_data(e: &ProtocolError) -> Value {
    e.to_json()
}

/// Classifies one line (without its newline); `overflowed` when it was longer than the cap.
pub fn classify(line: &[u8], overflowed: bool, limits: &Limits) -> Incoming {
    let null = RawId::null();
    if overflowed {
        let e = ProtocolError::LineTooLong {
            limit: limits.max_line_bytes,
        };
        return refusal(&null, PARSE_ERROR, "Parse error", protocol_data(&e));
    }
    let Ok(text) = std::str::from_utf8(line) else {
        let e = ProtocolError::InvalidUtf8;
        return refusal(&null, PARSE_ERROR, "Parse error", protocol_data(&e));
    };
    if text.trim().is_empty() {
        let e = ProtocolError::EmptyLine;
        return refusal(&null, PARSE_ERROR, "Parse error", protocol_data(&e));
    }
    let depth = limits.max_json_depth + ENVELOPE_DEPTH;
    let value = match parse_strict(text, depth) {
        Ok(v) => v,
        Err(e @ ProtocolError::MalformedJson { .. }) => {
            return refusal(&null, PARSE_ERROR, "Parse error", protocol_data(&e));
        }
        // Well-formed JSON refused for its shape (too deep, a repeated member).
        Err(e) => {
            let id = valid_id(text, depth).unwrap_or(null);
            return refusal(&id, INVALID_REQUEST, "Invalid Request", protocol_data(&e));
        }
    };
    let Value::Object(map) = &value else {
        let what = if value.is_array() {
            "batches are not supported; send one message per line"
        } else {
            "a message must be a JSON object"
        };
        return refusal(
            &null,
            INVALID_REQUEST,
            "Invalid Request",
            json!({"reason": what}),
        );
    };
    let id = match map.get("id") {
        None => null,
        Some(v) if is_request_id(v) => RawId::from_value(v),
        Some(_) => {
            let reason = "`id` must be a string or an integer from -2^63 to 2^63-1";
            return refusal(
                &null,
                INVALID_REQUEST,
                "Invalid Request",
                json!({"reason": reason}),
            );
        }
    };
    let method = map
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let known = KNOWN_METHODS.iter().copied().find(|m| *m == method);
    let has_id = map.contains_key("id");
    let bad_params = |m: &str| {
        let reason = format!("the params of `{m}` do not fit the method");
        refusal(
            &id,
            INVALID_PARAMS,
            "Invalid params",
            json!({"reason": reason}),
        )
    };
    match serde_json::from_value::<RxJsonRpcMessage<RoleServer>>(value) {
        // rmcp reads a known method whose params do not fit as a custom request.
        Ok(JsonRpcMessage::Request(r)) if matches!(r.request, ClientRequest::CustomRequest(_)) => {
            match known {
                Some(m) => bad_params(m),
                None => Incoming::Message(Box::new(JsonRpcMessage::Request(r))),
            }
        }
        Ok(message) => Incoming::Message(Box::new(message)),
        Err(_) if has_id && known.is_some() => bad_params(known.unwrap_or_default()),
        Err(e) => {
            let reason = format!("not a JSON-RPC 2.0 message: {e}");
            refusal(
                &id,
                INVALID_REQUEST,
                "Invalid Request",
                json!({"reason": reason}),
            )
        }
    }
}

/// JSON-RPC ids rmcp can carry: strings and integers within i64.
fn is_request_id(v: &Value) -> bool {
    v.is_string() || v.as_i64().is_some()
}

/// The id of a message refused for its shape, when it is a valid id.
fn valid_id(text: &str, depth: usize) -> Option<RawId> {
    let raw = centl_protocol::id::find_id(text, depth);
    is_request_id(&raw.to_value()).then_some(raw)
}

/// Reads one line into `line` (without `\n` or a trailing `\r`), keeping at most `cap` bytes.
/// Returns `None` at end of input, else whether the line was longer than `cap`.
pub async fn read_capped_line<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    line: &mut Vec<u8>,
    cap: usize,
) -> io::Result<Option<bool>> {
    line.clear();
    let mut overflowed = false;
    let mut seen_any = false;
    loop {
        let chunk = reader.fill_buf().await?;
        if chunk.is_empty() {
            if !seen_any {
                return Ok(None);
            }
            break;
        }
        seen_any = true;
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        // One byte of slack for a `\r` that is stripped below.
        if !overflowed && line.len() + part.len() > cap + 1 {
            overflowed = true;
            line.clear();
        } else if !overflowed {
            line.extend_from_slice(part);
        }
        let used = done.unwrap_or(chunk.len());
        reader.consume(used);
        if done.is_some() {
            break;
        }
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok(Some(overflowed || line.len() > cap))
}

/// Newline-delimited JSON-RPC over an async reader and writer, answering unreadable lines.
///
/// The lines are read, classified and (when refused) answered by a task of their own, which
/// hands messages to [`Transport::receive`] through a channel. rmcp polls `receive` inside a
/// `select!` and drops it whenever another branch is ready first (a response finished
/// sending): a `receive` that read and answered lines itself lost the line it had half read
/// or the refusal it was writing at that moment (found by the fuzz campaign's `mcp` target as
/// a call that never got a reply). Receiving from a channel is cancel-safe.
pub struct LineTransport<R, W> {
    reader: Option<R>,
    writer: Arc<Mutex<W>>,
    limits: Limits,
    messages: Option<mpsc::Receiver<RxJsonRpcMessage<RoleServer>>>,
}

impl<R, W> LineTransport<R, W> {
    /// A transport over `reader` and `writer` holding messages to `limits`.
    pub fn new(reader: R, writer: W, limits: Limits) -> Self {
        LineTransport {
            reader: Some(reader),
            writer: Arc::new(Mutex::new(writer)),
            limits,
            messages: None,
        }
    }
}

async fn write_line<W: AsyncWrite + Unpin>(writer: &Mutex<W>, bytes: &[u8]) -> io::Result<()> {
    let mut w = writer.lock().await;
    w.write_all(bytes).await?;
    w.write_all(b"\n").await?;
    w.flush().await
}

/// Reads lines until the input ends (or the transport is gone): messages go to `messages`,
/// refusals are written back at once.
async fn read_lines<R, W>(
    mut reader: R,
    writer: Arc<Mutex<W>>,
    limits: Limits,
    messages: mpsc::Sender<RxJsonRpcMessage<RoleServer>>,
) where
    R: AsyncBufRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut line = Vec::new();
    while let Ok(Some(overflowed)) =
        read_capped_line(&mut reader, &mut line, limits.max_line_bytes).await
    {
        match classify(&line, overflowed, &limits) {
            Incoming::Message(m) => {
                if messages.send(*m).await.is_err() {
                    return;
                }
            }
            Incoming::Refused(reply) => {
                let Ok(bytes) = serde_json::to_vec(&reply) else {
                    return;
                };
                if write_line(&writer, &bytes).await.is_err() {
                    return;
                }
            }
        }
    }
}

impl<R, W> Transport<RoleServer> for LineTransport<R, W>
where
    R: AsyncBufRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), io::Error>> + Send + 'static {
        let writer = Arc::clone(&self.writer);
        async move {
            let bytes = serde_json::to_vec(&item)?;
            write_line(&writer, &bytes).await
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        // The reader task starts on the first call, inside the runtime, before any await.
        if let Some(reader) = self.reader.take() {
            let (tx, rx) = mpsc::channel(16);
            tokio::spawn(read_lines(
                reader,
                Arc::clone(&self.writer),
                self.limits.clone(),
                tx,
            ));
            self.messages = Some(rx);
        }
        self.messages.as_mut()?.recv().await
    }

    async fn close(&mut self) -> Result<(), io::Error> {
        self.writer.lock().await.flush().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(line: &[u8]) -> Value {
        match classify(line, false, &Limits::default()) {
            Incoming::Refused(v) => v,
            Incoming::Message(m) => panic!("accepted: {m:?}"),
        }
    }

    #[test]
    fn unreadable_lines_are_parse_errors() {
        for (line, code) in [
            (&b"{\"jsonrpc\":"[..], "malformed_json"),
            (b"", "empty_line"),
            (b"  ", "empty_line"),
            (b"\xff\xfe{}", "invalid_utf8"),
        ] {
            let r = refused(line);
            assert_eq!(r["error"]["code"], json!(PARSE_ERROR), "{r}");
            assert_eq!(r["error"]["data"]["code"], json!(code), "{r}");
            assert_eq!(r["id"], Value::Null);
        }
        let Incoming::Refused(r) = classify(b"", true, &Limits::default()) else {
            panic!()
        };
        assert_eq!(r["error"]["data"]["code"], json!("line_too_long"));
    }

    #[test]
    fn shape_refusals_are_invalid_requests_with_the_id_when_valid() {
        let r = refused(br#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#);
        assert_eq!(r["error"]["code"], json!(INVALID_REQUEST));
        let r = refused(br#"{"jsonrpc":"2.0","id":18446744073709551616,"method":"ping"}"#);
        assert_eq!(r["error"]["code"], json!(INVALID_REQUEST));
        assert_eq!(r["id"], Value::Null);
        let r = refused(br#"{"jsonrpc":"2.0","id":4,"id":5,"method":"ping"}"#);
        assert_eq!(r["error"]["data"]["code"], json!("duplicate_key"));
        let deep = format!(
            r#"{{"jsonrpc":"2.0","id":"d","method":"tools/call","params":{}{}}}"#,
            "[".repeat(200),
            "]".repeat(200)
        );
        let r = refused(deep.as_bytes());
        assert_eq!(r["error"]["data"]["code"], json!("nesting_too_deep"));
        assert_eq!(r["id"], json!("d"));
    }

    #[test]
    fn known_method_with_bad_params_is_invalid_params() {
        let r = refused(br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":3}}"#);
        assert_eq!(r["error"]["code"], json!(INVALID_PARAMS), "{r}");
        assert_eq!(r["id"], json!(7));
        let r = refused(br#"{"jsonrpc":"2.0","id":"s","method":"tools/call","params":7}"#);
        assert_eq!(r["error"]["code"], json!(INVALID_PARAMS), "{r}");
        assert_eq!(r["id"], json!("s"));
    }

    #[test]
    fn good_messages_pass() {
        for line in [
            &br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#[..],
            br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            br#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"centl_physics","arguments":{"action":"capabilities"}}}"#,
        ] {
            assert!(
                matches!(classify(line, false, &Limits::default()), Incoming::Message(_)),
                "{}",
                String::from_utf8_lossy(line)
            );
        }
    }
}

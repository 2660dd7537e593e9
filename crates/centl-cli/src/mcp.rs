//! `centl-physics --mcp`: one read-only, idempotent MCP tool, `centl_physics`, over stdio.
//!
//! The tool takes `{"action": ..., "args": {...}}` and hands it to the same protocol table as
//! the JSON Lines server: there is no second evaluator. Its structured content mirrors the
//! protocol response (`{"v":1,"ok":true,"result":...}` or `{"v":1,"ok":false,"error":...}`);
//! a failed request is a tool result with `isError: true`, and a deferred physics verdict is an
//! ordinary successful result.
//!
//! Calls run on blocking threads, up to the worker count at once, so a long call does not hold
//! up the others. A `notifications/cancelled` naming a call sets its [`CancelFlag`]: the work
//! stops within one step and, as the MCP specification asks, no response is sent for it.

use crate::mcp_wire::LineTransport;
use centl_protocol::{
    CancelFlag, Limits, ProtocolError, VERSION, dispatch_cancellable, json::type_name, table,
};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, Implementation, JsonObject,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
    ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Value, json};
use std::process::ExitCode;
use std::sync::Arc;

/// The one tool's name.
pub const TOOL: &str = "centl_physics";

/// The MCP server: the limits in force and the tool description.
struct PhysicsServer {
    limits: Limits,
    tool: Tool,
    /// One permit per worker: calls beyond them wait their turn.
    workers: Arc<tokio::sync::Semaphore>,
}

fn tool() -> Tool {
    let names: Vec<&str> = table().iter().map(|a| a.name()).collect();
    let mut description = String::from(
        "Exact-rational, dimension-checked particle mechanics (version-1 protocol). \
         Numbers are exact strings (\"9/2\", \"0.1\"); quantities are {\"value\",\"unit\"}; \
         vectors are three strings. Call action `capabilities` for every argument schema and limit. \
         Actions:",
    );
    for a in table() {
        description.push_str(&format!("\n- {}: {}", a.name(), a.summary()));
    }
    let schema = json!({
        "type": "object",
        "properties": {
            "action": {"type": "string", "enum": names, "description": "the protocol action"},
            "args": {"type": "object", "description": "the action's arguments; see `capabilities`"},
        },
        "required": ["action"],
        "additionalProperties": false,
    });
    let schema: JsonObject = match schema {
        Value::Object(m) => m,
        _ => JsonObject::new(),
    };
    Tool::new(TOOL, description, Arc::new(schema)).with_annotations(
        ToolAnnotations::with_title("CENTL exact physics")
            .read_only(true)
            .destructive(false)
            .idempotent(true)
            .open_world(false),
    )
}

/// Runs one tool call through the protocol table under `cancel`.
fn answer(arguments: Option<JsonObject>, limits: &Limits, cancel: &CancelFlag) -> CallToolResult {
    let outcome = (|| {
        let args = arguments.unwrap_or_default();
        if let Some(extra) = args
            .keys()
            .find(|k| !matches!(k.as_str(), "action" | "args"))
        {
            return Err(ProtocolError::UnknownArgument {
                path: extra.clone(),
                expected: vec!["action", "args"],
            });
        }
        let action = match args.get("action") {
            None => return Err(ProtocolError::MissingAction),
            Some(Value::String(s)) => s.as_str(),
            Some(other) => {
                return Err(ProtocolError::WrongType {
                    path: "action".into(),
                    expected: "a string".into(),
                    found: type_name(other),
                });
            }
        };
        if let Some(a) = args.get("args")
            && depth(a) + 1 > limits.max_json_depth
        {
            return Err(ProtocolError::NestingTooDeep {
                limit: limits.max_json_depth,
            });
        }
        dispatch_cancellable(action, args.get("args"), limits, cancel)
    })();
    match outcome {
        Ok(result) => {
            CallToolResult::structured(json!({"v": VERSION, "ok": true, "result": result}))
        }
        Err(e) => CallToolResult::structured_error(
            json!({"v": VERSION, "ok": false, "error": e.to_json()}),
        ),
    }
}

/// Nesting depth of arrays and objects, counted iteratively so no input can exhaust the stack.
fn depth(v: &Value) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(v, 0usize)];
    while let Some((v, d)) = stack.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match v {
            Value::Array(a) => Box::new(a.iter()),
            Value::Object(m) => Box::new(m.values()),
            _ => continue,
        };
        deepest = deepest.max(d + 1);
        stack.extend(children.map(|c| (c, d + 1)));
    }
    deepest
}

impl ServerHandler for PhysicsServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                "centl-physics",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(
                "One read-only tool, centl_physics: exact physics through the version-1 protocol. \
                 Start with {\"action\":\"capabilities\"}.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(vec![self.tool.clone()]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        if request.name != TOOL {
            return Err(McpError::invalid_params(
                format!(
                    "unknown tool `{}`; this server has one tool, `{TOOL}`",
                    request.name
                ),
                None,
            ));
        }
        let cancel = CancelFlag::new();
        let ct = context.ct.clone();
        // Wait for a worker unless the call is cancelled first (then nothing is sent back).
        let permit = tokio::select! {
            permit = self.workers.clone().acquire_owned() => permit,
            () = ct.cancelled() => return Err(McpError::internal_error("cancelled", None)),
        };
        let (limits, flag) = (self.limits.clone(), cancel.clone());
        let job = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            answer(request.arguments, &limits, &flag)
        });
        // A cancellation while the call runs sets its flag; the work stops within one step.
        let watch = tokio::spawn(async move {
            ct.cancelled().await;
            cancel.cancel();
        });
        let result = job.await;
        watch.abort();
        match result {
            Ok(r) => Ok(r.into()),
            Err(e) => Err(McpError::internal_error(
                format!("the call failed: {e}"),
                None,
            )),
        }
    }
}

/// Serves MCP on stdin/stdout until the client disconnects, running up to `workers` calls at
/// once.
pub fn run(workers: usize) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: starting the MCP runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let limits = Limits::default();
    let server = PhysicsServer {
        limits: limits.clone(),
        tool: tool(),
        workers: Arc::new(tokio::sync::Semaphore::new(workers.max(1))),
    };
    let result = runtime.block_on(async move {
        let stdin = tokio::io::BufReader::new(tokio::io::stdin());
        let transport = LineTransport::new(stdin, tokio::io::stdout(), limits);
        let running = server.serve(transport).await?;
        running.waiting().await?;
        Ok::<(), Box<dyn std::error::Error>>(())
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: MCP server: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(args: Value) -> CallToolResult {
        let Value::Object(m) = args else { panic!() };
        answer(Some(m), &Limits::default(), &CancelFlag::new())
    }

    #[test]
    fn success_and_error_mirror_the_protocol() {
        let ok = call(json!({"action": "constant", "args": {"name": "c"}}));
        assert_eq!(ok.is_error, Some(false));
        let s = ok.structured_content.unwrap();
        assert_eq!(s["ok"], json!(true));
        assert_eq!(
            s["result"]["quantity"],
            json!({"value": "299792458", "unit": "m/s"})
        );
        let bad = call(json!({"action": "constant", "args": {"name": "c", "x": 1}}));
        assert_eq!(bad.is_error, Some(true));
        assert_eq!(
            bad.structured_content.unwrap()["error"]["code"],
            json!("unknown_argument")
        );
        let extra = call(json!({"action": "constant", "argz": {}}));
        assert_eq!(
            extra.structured_content.unwrap()["error"]["code"],
            json!("unknown_argument")
        );
        let none = answer(None, &Limits::default(), &CancelFlag::new());
        assert_eq!(
            none.structured_content.unwrap()["error"]["code"],
            json!("missing_action")
        );
    }

    #[test]
    fn depth_counts_containers() {
        assert_eq!(depth(&json!(1)), 0);
        assert_eq!(depth(&json!([[1], {"a": [[]]}])), 4);
        let mut deep = json!(0);
        for _ in 0..100 {
            deep = json!([deep]);
        }
        let r = call(json!({"action": "capabilities", "args": {"a": deep}}));
        assert_eq!(
            r.structured_content.unwrap()["error"]["code"],
            json!("nesting_too_deep")
        );
    }
}

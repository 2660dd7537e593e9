//! The LSP transport: a synchronous loop over `lsp-server`'s connection that keeps the open
//! documents (incremental sync), re-analyses a document on each change, publishes its
//! diagnostics and answers requests from the analysis. Nothing here decides what to answer.
//! A panic in the analysis does not end the session: a request gets an error response and a
//! document a PH0122 diagnostic, and the loop goes on.

use crate::analysis::Analysis;
use crate::{convert, position};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types as lsp;
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Notification as _,
    PublishDiagnostics,
};
use lsp_types::request::{
    CodeActionRequest, Completion, Formatting, GotoDefinition, HoverRequest, References,
    Request as _,
};
use std::collections::HashMap;
use std::panic::AssertUnwindSafe;

/// Why the server stopped other than by `shutdown`/`exit`.
#[derive(Debug)]
pub struct ServerError {
    /// What went wrong (protocol or I/O).
    pub message: String,
}

impl std::fmt::Display for ServerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ServerError {}

fn fail(e: impl std::fmt::Display) -> ServerError {
    ServerError {
        message: e.to_string(),
    }
}

/// What the server offers.
pub fn capabilities() -> lsp::ServerCapabilities {
    lsp::ServerCapabilities {
        text_document_sync: Some(lsp::TextDocumentSyncCapability::Kind(
            lsp::TextDocumentSyncKind::INCREMENTAL,
        )),
        hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
        completion_provider: Some(lsp::CompletionOptions {
            trigger_characters: Some(vec![".".into(), " ".into(), ":".into()]),
            ..Default::default()
        }),
        definition_provider: Some(lsp::OneOf::Left(true)),
        references_provider: Some(lsp::OneOf::Left(true)),
        document_formatting_provider: Some(lsp::OneOf::Left(true)),
        code_action_provider: Some(lsp::CodeActionProviderCapability::Simple(true)),
        ..Default::default()
    }
}

/// Serve over stdin/stdout until the client exits.
pub fn run_stdio() -> Result<(), ServerError> {
    let (connection, io) = Connection::stdio();
    serve(&connection)?;
    drop(connection);
    io.join().map_err(fail)
}

/// Serve one connection: the initialize handshake, then messages until `exit`.
pub fn serve(connection: &Connection) -> Result<(), ServerError> {
    let caps = serde_json::to_value(capabilities()).map_err(fail)?;
    connection.initialize(caps).map_err(fail)?;
    let mut docs: HashMap<String, (lsp::Uri, Analysis)> = HashMap::new();
    for msg in &connection.receiver {
        match msg {
            Message::Request(req) => {
                if connection.handle_shutdown(&req).map_err(fail)? {
                    return Ok(());
                }
                let id = req.id.clone();
                let resp = guarded(|| answer(&docs, req)).unwrap_or_else(|message| {
                    Response::new_err(id, ErrorCode::InternalError as i32, message)
                });
                connection
                    .sender
                    .send(Message::Response(resp))
                    .map_err(fail)?;
            }
            Message::Notification(n) => {
                if let Some(uri) = notify(&mut docs, n) {
                    publish(connection, &docs, &uri)?;
                }
            }
            Message::Response(_) => {}
        }
    }
    Ok(())
}

/// `f`'s value, or what it said when it panicked, as the message of an internal error.
pub fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        let what = (payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "no message".into());
        format!("the analysis failed ({what}); this is a fault of Physis, please report it")
    })
}

/// The analysis of `text`; should it panic, [`Analysis::failed`], so later edits still apply
/// to the right text.
pub fn analyse(text: String) -> Analysis {
    guarded(|| Analysis::new(text.clone()))
        .unwrap_or_else(|message| Analysis::failed(text, message))
}

/// [`analyse`] for the document at `uri`: a `file:` document reads its module files beside it.
pub fn analyse_at(text: String, uri: &lsp::Uri) -> Analysis {
    match position::file_path(uri.as_str()) {
        Some(path) => guarded(|| Analysis::at(text.clone(), &path))
            .unwrap_or_else(|message| Analysis::failed(text, message)),
        None => analyse(text),
    }
}

/// Apply a document notification; the URI whose diagnostics changed.
fn notify(docs: &mut HashMap<String, (lsp::Uri, Analysis)>, n: Notification) -> Option<lsp::Uri> {
    match n.method.as_str() {
        DidOpenTextDocument::METHOD => {
            let p: lsp::DidOpenTextDocumentParams = serde_json::from_value(n.params).ok()?;
            let uri = p.text_document.uri;
            let a = analyse_at(p.text_document.text, &uri);
            docs.insert(uri.as_str().to_string(), (uri.clone(), a));
            Some(uri)
        }
        DidChangeTextDocument::METHOD => {
            let p: lsp::DidChangeTextDocumentParams = serde_json::from_value(n.params).ok()?;
            let uri = p.text_document.uri;
            let (_, old) = docs.get(uri.as_str())?;
            let mut text = old.source.clone();
            for change in p.content_changes {
                position::apply_change(&mut text, change.range, &change.text);
            }
            let a = analyse_at(text, &uri);
            docs.insert(uri.as_str().to_string(), (uri.clone(), a));
            Some(uri)
        }
        DidCloseTextDocument::METHOD => {
            let p: lsp::DidCloseTextDocumentParams = serde_json::from_value(n.params).ok()?;
            docs.remove(p.text_document.uri.as_str());
            None
        }
        _ => None,
    }
}

fn publish(
    connection: &Connection,
    docs: &HashMap<String, (lsp::Uri, Analysis)>,
    uri: &lsp::Uri,
) -> Result<(), ServerError> {
    let Some((_, a)) = docs.get(uri.as_str()) else {
        return Ok(());
    };
    let params = lsp::PublishDiagnosticsParams {
        uri: uri.clone(),
        diagnostics: a
            .diagnostics()
            .iter()
            .map(|d| convert::diagnostic(a, uri, d))
            .collect(),
        version: None,
    };
    let note = Notification::new(PublishDiagnostics::METHOD.to_string(), params);
    connection
        .sender
        .send(Message::Notification(note))
        .map_err(fail)
}

fn ok(id: RequestId, value: impl serde::Serialize) -> Response {
    Response::new_ok(id, value)
}

/// The response to one request.
fn answer(docs: &HashMap<String, (lsp::Uri, Analysis)>, req: Request) -> Response {
    let id = req.id.clone();
    let doc = |uri: &lsp::Uri| docs.get(uri.as_str()).map(|(_, a)| a);
    let bad = |e: String| Response::new_err(id.clone(), ErrorCode::InvalidParams as i32, e);
    macro_rules! params {
        ($t:ty) => {
            match serde_json::from_value::<$t>(req.params.clone()) {
                Ok(p) => p,
                Err(e) => return bad(e.to_string()),
            }
        };
    }
    match req.method.as_str() {
        HoverRequest::METHOD => {
            let p = params!(lsp::HoverParams);
            let tdp = p.text_document_position_params;
            let hover = doc(&tdp.text_document.uri).and_then(|a| {
                let h = a.hover(position::offset(&a.source, tdp.position))?;
                Some(lsp::Hover {
                    contents: lsp::HoverContents::Markup(lsp::MarkupContent {
                        kind: lsp::MarkupKind::Markdown,
                        value: h.markdown,
                    }),
                    range: Some(position::range(&a.source, h.span)),
                })
            });
            ok(id, hover)
        }
        Completion::METHOD => {
            let p = params!(lsp::CompletionParams);
            let tdp = p.text_document_position;
            let items: Vec<lsp::CompletionItem> = doc(&tdp.text_document.uri)
                .map(|a| {
                    a.completions(position::offset(&a.source, tdp.position))
                        .iter()
                        .map(|c| convert::completion(a, c))
                        .collect()
                })
                .unwrap_or_default();
            ok(id, lsp::CompletionResponse::Array(items))
        }
        GotoDefinition::METHOD => {
            let p = params!(lsp::GotoDefinitionParams);
            let tdp = p.text_document_position_params;
            let uri = tdp.text_document.uri;
            let loc = doc(&uri).and_then(|a| {
                let span = a.definition(position::offset(&a.source, tdp.position))?;
                Some(lsp::GotoDefinitionResponse::Scalar(lsp::Location::new(
                    uri.clone(),
                    position::range(&a.source, span),
                )))
            });
            ok(id, loc)
        }
        References::METHOD => {
            let p = params!(lsp::ReferenceParams);
            let tdp = p.text_document_position;
            let uri = tdp.text_document.uri;
            let locs: Vec<lsp::Location> = doc(&uri)
                .map(|a| {
                    let at = position::offset(&a.source, tdp.position);
                    a.references(at, p.context.include_declaration)
                        .into_iter()
                        .map(|s| lsp::Location::new(uri.clone(), position::range(&a.source, s)))
                        .collect()
                })
                .unwrap_or_default();
            ok(id, locs)
        }
        Formatting::METHOD => {
            let p = params!(lsp::DocumentFormattingParams);
            let edits: Vec<lsp::TextEdit> = doc(&p.text_document.uri)
                .and_then(|a| a.format().map(|e| vec![convert::edit(a, &e)]))
                .unwrap_or_default();
            ok(id, edits)
        }
        CodeActionRequest::METHOD => {
            let p = params!(lsp::CodeActionParams);
            let uri = p.text_document.uri;
            let actions: Vec<lsp::CodeActionOrCommand> = doc(&uri)
                .map(|a| {
                    a.fixes(position::span(&a.source, p.range))
                        .iter()
                        .map(|f| {
                            let edits = f.edits.iter().map(|e| convert::edit(a, e)).collect();
                            lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                                title: f.title.clone(),
                                kind: Some(lsp::CodeActionKind::QUICKFIX),
                                diagnostics: Some(vec![convert::diagnostic(
                                    a,
                                    &uri,
                                    &f.diagnostic,
                                )]),
                                edit: Some(lsp::WorkspaceEdit {
                                    changes: Some([(uri.clone(), edits)].into_iter().collect()),
                                    ..Default::default()
                                }),
                                is_preferred: Some(true),
                                ..Default::default()
                            })
                        })
                        .collect()
                })
                .unwrap_or_default();
            ok(id, actions)
        }
        _ => Response::new_err(
            id,
            ErrorCode::MethodNotFound as i32,
            format!("unsupported request {}", req.method),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_is_caught_with_its_message() {
        let caught = guarded(|| -> u8 { panic!("boom") }).unwrap_err();
        assert!(caught.contains("(boom)"), "{caught}");
        assert_eq!(guarded(|| 7), Ok(7));
    }

    #[test]
    fn a_failed_analysis_keeps_the_text_and_answers_every_request() {
        let text = "simulate A {\n  state x : Length = 1 m\n}\n".to_string();
        let a = Analysis::failed(text.clone(), "the analysis failed (boom)".into());
        assert_eq!(a.source, text);
        let codes: Vec<&str> = a.diagnostics().iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, ["PH0122"]);
        for offset in 0..=text.len() {
            let _ = (a.hover(offset), a.completions(offset), a.definition(offset));
        }
        // Formatting reads only the text, so it still works.
        assert_eq!(a.format(), None);
    }
}

//! The studio's errors, each an HTTP status and a JSON body the page shows as it is:
//! `{"error": {"kind": "model", "message": "error[PH0104]: ..."}}`.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// A request the studio refuses or could not serve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// `request`, `model`, `limit` or `internal`.
    pub kind: &'static str,
    /// What to tell the user (rendered diagnostics for a model that does not check).
    pub message: String,
}

impl ApiError {
    /// A request that is not what the API takes (bad JSON, an unknown format, ...).
    pub fn request(message: impl Into<String>) -> Self {
        Self {
            status: StatusCode::BAD_REQUEST,
            kind: "request",
            message: message.into(),
        }
    }

    /// A model that does not check, lower or run.
    pub fn model(message: impl Into<String>) -> Self {
        Self {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            kind: "model",
            message: message.into(),
        }
    }

    /// A run past one of the studio's limits.
    pub fn limit(message: impl Into<String>) -> Self {
        Self {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            kind: "limit",
            message: message.into(),
        }
    }

    /// A source past the size limit.
    pub fn too_large(bytes: usize, limit: usize) -> Self {
        Self {
            status: StatusCode::PAYLOAD_TOO_LARGE,
            kind: "limit",
            message: format!("the source is {bytes} bytes; the studio takes at most {limit}"),
        }
    }

    /// A fault of the studio itself (a panic caught at the handler's boundary).
    pub fn internal(message: impl Into<String>) -> Self {
        Self {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            kind: "internal",
            message: message.into(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({
            "error": { "kind": self.kind, "message": self.message }
        });
        (self.status, Json(body)).into_response()
    }
}

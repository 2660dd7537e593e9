//! The studio's routes: the page and its script, the bundled examples, and the JSON API
//! (`/api/check`, `/api/run`, `/api/download?format=csv|parquet`). Checks and runs happen on
//! blocking threads behind `catch_unwind`, runs one or two at a time, and the server stops
//! waiting for a run a little after its wall-time budget (setting its cancel flag), so no
//! request can hang the page or take the server down.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Serialize;
use tokio::sync::Semaphore;

use super::error::ApiError;
use super::job::{self, Limits, Output, RunRequest};
use super::{assets, check, reply};

/// What every handler shares.
#[derive(Clone)]
pub struct Studio {
    /// What a request may use.
    pub limits: Arc<Limits>,
    /// Runs at once.
    runs: Arc<Semaphore>,
}

impl Studio {
    /// A studio with these limits, running at most `parallel` runs at once.
    pub fn new(limits: Limits, parallel: usize) -> Self {
        Studio {
            limits: Arc::new(limits),
            runs: Arc::new(Semaphore::new(parallel.max(1))),
        }
    }
}

/// Every route.
pub fn router(studio: Studio) -> Router {
    // A body a little larger than the source limit, so the handler can say which limit.
    let body_limit = studio.limits.source_bytes.saturating_mul(2) + 4096;
    Router::new()
        .route("/", get(page))
        .route("/studio.js", get(script))
        .route("/api/examples", get(examples))
        .route("/api/check", post(check_text))
        .route("/api/run", post(run))
        .route("/api/download", post(download))
        .layer(DefaultBodyLimit::max(body_limit))
        .with_state(studio)
}

async fn page() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        assets::PAGE,
    )
}

async fn script() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        assets::SCRIPT,
    )
}

#[derive(Serialize)]
struct Example {
    name: &'static str,
    source: &'static str,
}

async fn examples() -> Response {
    let list: Vec<Example> = (assets::EXAMPLES.iter())
        .map(|&(name, source)| Example { name, source })
        .collect();
    axum::Json(list).into_response()
}

/// The panic's message, for the error the page shows.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    let what = (payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".into());
    format!(
        "the studio failed on this request ({what}); this is a fault of Physis, please report it"
    )
}

/// Runs `work` on a blocking thread; a panic there is an internal error, not a dead server.
pub async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let joined = tokio::task::spawn_blocking(move || {
        std::panic::catch_unwind(AssertUnwindSafe(work))
            .unwrap_or_else(|payload| Err(ApiError::internal(panic_text(&*payload))))
    })
    .await;
    joined.unwrap_or_else(|e| Err(ApiError::internal(format!("the worker stopped: {e}"))))
}

/// The request body as `T`, or a clear error.
fn parse<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| ApiError::request(format!("bad request body: {e}")))
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckRequest {
    source: String,
}

async fn check_text(State(studio): State<Studio>, body: Bytes) -> Result<Response, ApiError> {
    let req: CheckRequest = parse(&body)?;
    let limits = studio.limits.clone();
    if req.source.len() > limits.source_bytes {
        return Err(ApiError::too_large(req.source.len(), limits.source_bytes));
    }
    let reply = blocking(move || Ok(check::check(&req.source, &limits))).await?;
    Ok(axum::Json(reply).into_response())
}

/// Runs `req` into `output` under the studio's limits.
async fn execute(
    studio: &Studio,
    req: RunRequest,
    output: Output,
) -> Result<job::Finished, ApiError> {
    if req.source.len() > studio.limits.source_bytes {
        return Err(ApiError::too_large(
            req.source.len(),
            studio.limits.source_bytes,
        ));
    }
    let _permit = (studio.runs.clone().acquire_owned().await)
        .map_err(|_| ApiError::internal("the studio is shutting down"))?;
    let cancel = Arc::new(AtomicBool::new(false));
    let limits = studio.limits.clone();
    let wall = limits.wall;
    let flag = cancel.clone();
    let work = blocking(move || job::execute(&req, &limits, &output, &flag));
    // The run reads its budget between steps; this is the backstop for one step that never
    // returns: the page gets its answer and the thread is told to stop.
    match tokio::time::timeout(wall + Duration::from_secs(2), work).await {
        Ok(result) => result,
        Err(_) => {
            cancel.store(true, Ordering::Relaxed);
            Err(ApiError::limit(format!(
                "the run took longer than {} s of wall time and was abandoned",
                wall.as_secs_f64()
            )))
        }
    }
}

async fn run(State(studio): State<Studio>, body: Bytes) -> Result<Response, ApiError> {
    let req: RunRequest = parse(&body)?;
    let finished = execute(&studio, req, Output::Plot).await?;
    let reply = blocking(move || reply::summary(&finished)).await?;
    Ok(axum::Json(reply).into_response())
}

#[derive(serde::Deserialize)]
struct DownloadQuery {
    format: Option<String>,
}

async fn download(
    State(studio): State<Studio>,
    Query(query): Query<DownloadQuery>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let (output, mime, ext) = match query.format.as_deref().unwrap_or("") {
        "csv" => (Output::Csv, "text/csv; charset=utf-8", "csv"),
        #[cfg(feature = "parquet")]
        "parquet" => (Output::Parquet, "application/vnd.apache.parquet", "parquet"),
        "" => {
            return Err(ApiError::request(
                "a download needs its format: ?format=csv or ?format=parquet",
            ));
        }
        other => {
            return Err(ApiError::request(format!(
                "unknown download format `{other}`; the studio writes csv and parquet"
            )));
        }
    };
    let req: RunRequest = parse(&body)?;
    let finished = execute(&studio, req, output).await?;
    let name = format!("{}.{ext}", finished.prepared.ir.info.name);
    // Simulation names are identifiers; keep only safe characters in the header anyway.
    let name: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    Ok((
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, mime.to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        finished.bytes,
    )
        .into_response())
}

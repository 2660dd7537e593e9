//! `physis studio [--port N] [--open]`: a local web page to write a model and see it run. The
//! server (axum on tokio) binds 127.0.0.1 only and prints its URL; the page (`assets`) checks
//! the text as the language server does (`check`), runs it server-side under limits (`job`,
//! `reply`), and offers the samples as CSV or Parquet (`api`). `docs/editor.md` describes it.

pub mod api;
pub mod assets;
pub mod check;
pub mod error;
pub mod job;
pub mod reply;
#[cfg(test)]
mod tests;

use std::io::Write;
use std::process::ExitCode;

/// Arguments of `physis studio`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Port on 127.0.0.1 (0 picks a free one; the URL is printed either way).
    #[arg(long, default_value_t = 8737)]
    port: u16,
    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,
}

pub fn run(args: &Args) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => return crate::cmd::Failure::usage(format!("error: {e}")).report(),
    };
    match runtime.block_on(serve(args)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => f.report(),
    }
}

async fn serve(args: &Args) -> Result<(), crate::cmd::Failure> {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", args.port))
        .await
        .map_err(|e| {
            crate::cmd::Failure::usage(format!(
                "error: cannot listen on 127.0.0.1:{}: {e}",
                args.port
            ))
        })?;
    let address = listener
        .local_addr()
        .map_err(|e| crate::cmd::Failure::usage(format!("error: {e}")))?;
    let url = format!("http://{address}/");
    // The URL on its own line, flushed, so a script can read it (`--port 0`).
    println!("physis studio: {url}");
    let _ = std::io::stdout().flush();
    if args.open {
        open_browser(&url);
    }
    let app = api::router(api::Studio::new(job::Limits::default(), 2));
    axum::serve(listener, app)
        .await
        .map_err(|e| crate::cmd::Failure::usage(format!("error: the server stopped: {e}")))
}

/// Asks the desktop to open `url`; says so when it cannot, and serves on.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(target_os = "windows") {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(opener).arg(url).spawn() {
        eprintln!("note: could not open a browser ({opener}: {e}); open {url} yourself");
    }
}

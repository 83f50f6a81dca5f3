//! `pdf`: `Page.printToPDF` as a stream, read in bounded chunks straight into the file.

use std::path::Path;

use agentbrowser_cdp::CdpError;
use agentbrowser_protocol::{ErrorCode, PdfOutput, PdfParams};
use base64::Engine as _;
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;

use super::{io_error, prepare};
use crate::cx::Cx;
use crate::error::{EngineError, Result};

/// Bytes asked for per `IO.read`.
const CHUNK: u64 = 1 << 20;

/// `pdf`.
pub(crate) async fn pdf(p: PdfParams, cx: &mut Cx<'_>) -> Result<PdfOutput> {
    let page = cx.page().await?;
    let printed = page
        .session
        .call(
            "Page.printToPDF",
            json!({
                "landscape": p.landscape.unwrap_or(false),
                "printBackground": p.print_background.unwrap_or(false),
                "preferCSSPageSize": p.prefer_css_page_size.unwrap_or(false),
                "transferMode": "ReturnAsStream",
            }),
        )
        .await
        .map_err(|e| match &e {
            CdpError::Protocol { message, .. } if message.contains("not implemented") => {
                EngineError::new(
                    ErrorCode::ActionFailed,
                    "pdf needs a headless browser, and this session's browser has a window; \
                     start the session without --headed",
                )
            }
            _ => EngineError::from(e),
        })?;
    let stream = printed
        .get("stream")
        .and_then(Value::as_str)
        .ok_or_else(|| EngineError::internal("Page.printToPDF answered no stream"))?
        .to_string();
    let path = Path::new(&p.path);
    let written = copy_stream(&page.session, &stream, path).await;
    let _ = page
        .session
        .call("IO.close", json!({"handle": stream}))
        .await;
    Ok(PdfOutput {
        path: p.path.clone(),
        size: written?,
    })
}

/// Reads the stream `handle` into `path` (whole or not at all: through a partial file).
async fn copy_stream(
    session: &agentbrowser_cdp::Session,
    handle: &str,
    path: &Path,
) -> Result<u64> {
    let tmp = prepare(path).await?;
    let result = async {
        let mut file = tokio::fs::File::create(&tmp)
            .await
            .map_err(|e| io_error("write", path, &e))?;
        let mut size = 0u64;
        loop {
            let chunk = session
                .call("IO.read", json!({"handle": handle, "size": CHUNK}))
                .await?;
            let data = chunk.get("data").and_then(Value::as_str).unwrap_or("");
            let bytes = if chunk.get("base64Encoded").and_then(Value::as_bool) == Some(true) {
                base64::engine::general_purpose::STANDARD
                    .decode(data)
                    .map_err(|e| {
                        EngineError::internal(format!("the PDF stream's base64 is malformed: {e}"))
                    })?
            } else {
                data.as_bytes().to_vec()
            };
            file.write_all(&bytes)
                .await
                .map_err(|e| io_error("write", path, &e))?;
            size += bytes.len() as u64;
            if chunk.get("eof").and_then(Value::as_bool) != Some(false) {
                break;
            }
        }
        file.flush()
            .await
            .map_err(|e| io_error("write", path, &e))?;
        tokio::fs::rename(&tmp, path)
            .await
            .map_err(|e| io_error("write", path, &e))?;
        Ok(size)
    }
    .await;
    if result.is_err() {
        let _ = tokio::fs::remove_file(&tmp).await;
    }
    result
}

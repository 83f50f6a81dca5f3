//! The HAR 1.2 document of a recording: one entry per request hop (a redirect's hops each with
//! their own headers, status, timings and `redirectURL`), in the order they were sent, each with
//! the page current when it was sent; pages timed by their DOMContentLoaded and load.

use std::collections::BTreeMap;

use agentbrowser_protocol::HarContent;
use base64::Engine as _;
use serde_json::{Value, json};

use crate::events::network::{Entry, HarBody, HarItem, Recording, is_text};

/// A HAR document and what is in it.
pub(super) struct Built {
    /// The document.
    pub har: Value,
    /// Entries, pages, requests the recording could not keep, bodies missing.
    pub entries: u64,
    pub pages: u64,
    pub dropped: u64,
    pub missing: u64,
}

/// ISO 8601 of `ms` since the epoch, with milliseconds.
fn iso(ms: f64) -> String {
    chrono::DateTime::from_timestamp_millis(ms as i64)
        .unwrap_or_default()
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// A headers map as HAR name/value pairs (Chromium joins repeated headers with newlines).
fn har_headers(h: &BTreeMap<String, String>) -> Vec<Value> {
    h.iter()
        .flat_map(|(k, v)| v.split('\n').map(move |v| json!({"name": k, "value": v})))
        .collect()
}

/// The value of header `name` (any case).
fn header<'a>(h: &'a BTreeMap<String, String>, name: &str) -> Option<&'a str> {
    h.iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// The cookies of a `Cookie` request header.
fn request_cookies(h: &BTreeMap<String, String>) -> Vec<Value> {
    header(h, "cookie")
        .map(|c| {
            c.split(';')
                .filter_map(|kv| {
                    let (k, v) = kv.split_once('=')?;
                    Some(json!({"name": k.trim(), "value": v.trim()}))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The cookies of the `Set-Cookie` response headers.
fn response_cookies(h: &BTreeMap<String, String>) -> Vec<Value> {
    let Some(all) = header(h, "set-cookie") else {
        return Vec::new();
    };
    all.split('\n')
        .filter_map(|line| {
            let mut parts = line.split(';');
            let (k, v) = parts.next()?.split_once('=')?;
            let mut c = json!({"name": k.trim(), "value": v.trim()});
            for attr in parts {
                let (a, val) = attr.split_once('=').unwrap_or((attr, ""));
                match a.trim().to_ascii_lowercase().as_str() {
                    "path" => c["path"] = json!(val.trim()),
                    "domain" => c["domain"] = json!(val.trim()),
                    "httponly" => c["httpOnly"] = json!(true),
                    "secure" => c["secure"] = json!(true),
                    _ => {}
                }
            }
            Some(c)
        })
        .collect()
}

/// HAR's name of an HTTP protocol.
fn http_version(protocol: Option<&str>) -> String {
    match protocol {
        Some("h2") => "HTTP/2".into(),
        Some("h3") | Some("http/2+quic/43") => "HTTP/3".into(),
        Some(p) if !p.is_empty() => p.to_ascii_uppercase(),
        _ => "HTTP/1.1".into(),
    }
}

/// HAR timings (ms) and the total time of an entry, from Chromium's `response.timing`.
fn timings(e: &Entry) -> (Value, f64) {
    let total = e
        .ended_ts
        .map_or(0.0, |end| ((end - e.sent_ts) * 1000.0).max(0.0));
    let Some(t) = &e.timing else {
        return (
            json!({"blocked": -1, "dns": -1, "connect": -1, "ssl": -1, "send": 0, "wait": 0, "receive": total}),
            total,
        );
    };
    let f = |k: &str| t.get(k).and_then(Value::as_f64).unwrap_or(-1.0);
    let span = |a: f64, b: f64| if a >= 0.0 && b >= a { b - a } else { -1.0 };
    let request_time = f("requestTime");
    let dns = span(f("dnsStart"), f("dnsEnd"));
    let connect = span(f("connectStart"), f("connectEnd"));
    let ssl = span(f("sslStart"), f("sslEnd"));
    let send_start = f("sendStart").max(0.0);
    let send_end = f("sendEnd").max(send_start);
    let headers_end = f("receiveHeadersEnd").max(send_end);
    let first = [f("dnsStart"), f("connectStart"), send_start]
        .into_iter()
        .find(|v| *v >= 0.0)
        .unwrap_or(0.0);
    // Time queued before Chromium's request time counts as blocked too.
    let queued = if request_time > 0.0 {
        ((request_time - e.sent_ts) * 1000.0).max(0.0)
    } else {
        0.0
    };
    let blocked = queued + first;
    let send = send_end - send_start;
    let wait = headers_end - send_end;
    let receive = e.ended_ts.map_or(0.0, |end| {
        ((end - request_time) * 1000.0 - headers_end).max(0.0)
    });
    let time = blocked + dns.max(0.0) + connect.max(0.0) + send + wait + receive;
    (
        json!({"blocked": blocked, "dns": dns, "connect": connect, "ssl": ssl,
               "send": send, "wait": wait, "receive": receive}),
        time,
    )
}

/// Where a hop that answered a redirect sent the browser: its `Location` as the server wrote
/// it (HAR's `redirectURL`), else the next hop's URL; "" for every other response (a 201's
/// `Location` is no redirect).
fn redirect_url(e: &Entry) -> &str {
    if e.state != "redirected" {
        return "";
    }
    header(&e.response_headers, "location")
        .or(e.redirect_url.as_deref())
        .unwrap_or("")
}

/// One HAR entry of a recorded request.
pub(super) fn har_entry(item: &HarItem, content_mode: HarContent, missing: &mut u64) -> Value {
    let e = &item.entry;
    let query: Vec<Value> = url::Url::parse(&e.url)
        .map(|u| {
            u.query_pairs()
                .map(|(k, v)| json!({"name": k, "value": v}))
                .collect()
        })
        .unwrap_or_default();
    let mut request = json!({
        "method": e.method,
        "url": e.url,
        "httpVersion": http_version(e.protocol.as_deref()),
        "cookies": request_cookies(&e.request_headers),
        "headers": har_headers(&e.request_headers),
        "queryString": query,
        "headersSize": -1,
        "bodySize": e.post_data.as_ref().map_or(0, |d| d.len() as i64),
    });
    if let Some(d) = &e.post_data {
        let mime = header(&e.request_headers, "content-type").unwrap_or("");
        request["postData"] = json!({"mimeType": mime, "text": d, "params": []});
    }
    // The body's size as decoded (what was sent over the wire is `_transferSize`/`bodySize`).
    let mut content = json!({
        "size": e.decoded_bytes.unwrap_or(0),
        "mimeType": e.mime_type,
    });
    let mut comments = Vec::new();
    match &item.body {
        HarBody::Got {
            text,
            base64,
            size,
            truncated,
        } => {
            content["size"] = json!(size);
            let engine = base64::engine::general_purpose::STANDARD;
            // A text body Chromium sent as base64 is written as text when it is UTF-8.
            let decoded = base64
                .then(|| engine.decode(text.as_bytes()).ok())
                .flatten()
                .filter(|_| is_text(&e.mime_type))
                .and_then(|b| String::from_utf8(b).ok());
            match (decoded, base64) {
                (Some(t), _) => content["text"] = json!(t),
                (None, true) => {
                    content["text"] = json!(text);
                    content["encoding"] = json!("base64");
                }
                (None, false) => content["text"] = json!(text),
            }
            if *truncated {
                comments.push(format!(
                    "body cut at {} bytes",
                    agentbrowser_protocol::HAR_BODY_KEPT_BYTES
                ));
            }
        }
        HarBody::Missing(why) => {
            *missing += 1;
            content["comment"] = json!(why);
        }
        HarBody::Pending => {
            *missing += 1;
            content["comment"] = json!("the body was still being fetched when the HAR was written");
        }
        HarBody::Skipped => {
            if content_mode != HarContent::None && e.state == "finished" {
                content["comment"] = json!(format!(
                    "body not kept in content mode {}",
                    content_mode.as_str()
                ));
            }
        }
    }
    let headers_size = e.headers_text_size.map_or(-1, |n| n as i64);
    let body_size = match (e.encoded_bytes, e.headers_text_size) {
        (Some(all), Some(h)) => all.saturating_sub(h) as i64,
        _ => -1,
    };
    if let Some(size) = content["size"].as_i64()
        && body_size >= 0
        && size > body_size
    {
        content["compression"] = json!(size - body_size);
    }
    if let Some(err) = &e.error {
        comments.push(format!("failed: {err}"));
    }
    if e.state == "pending" {
        comments.push(
            if e.status.is_none() {
                "pending: no response yet when the HAR was written"
            } else {
                "pending: the response was still loading when the HAR was written"
            }
            .to_string(),
        );
    }
    let response = json!({
        "status": e.status.unwrap_or(0),
        "statusText": e.status_text,
        "httpVersion": http_version(e.protocol.as_deref()),
        "cookies": response_cookies(&e.response_headers),
        "headers": har_headers(&e.response_headers),
        "content": content,
        "redirectURL": redirect_url(e),
        "headersSize": headers_size,
        "bodySize": body_size,
    });
    let mut response = response;
    if let Some(n) = e.encoded_bytes {
        response["_transferSize"] = json!(n);
    }
    let (timings, time) = timings(e);
    let mut entry = json!({
        "pageref": item.pageref,
        "startedDateTime": iso(e.started_at),
        "time": time,
        "request": request,
        "response": response,
        "cache": {},
        "timings": timings,
        "_resourceType": e.resource_type,
        "_requestId": e.id,
        "_source": e.kind,
    });
    if let Some(ip) = &e.remote_ip {
        entry["serverIPAddress"] = json!(ip.trim_start_matches('[').trim_end_matches(']'));
    }
    if let Some(port) = e.remote_port {
        entry["connection"] = json!(port.to_string());
    }
    if !comments.is_empty() {
        entry["comment"] = json!(comments.join("; "));
    }
    entry
}

/// The HAR 1.2 document of a recording.
pub(super) fn build_har(r: &Recording, browser_version: &str) -> Built {
    let mut missing = 0;
    let mut items: Vec<&HarItem> = r.items.iter().collect();
    items.sort_by(|a, b| a.entry.started_at.total_cmp(&b.entry.started_at));
    let entries: Vec<Value> = items
        .iter()
        .map(|i| har_entry(i, r.content, &mut missing))
        .collect();
    // The pages some entry belongs to (a tab's page without requests says nothing).
    let pages: Vec<Value> = r
        .pages
        .iter()
        .filter(|p| items.iter().any(|i| i.pageref == p.id))
        .map(|p| {
            let mut page = json!({
                "startedDateTime": iso(p.started_at),
                "id": p.id,
                "title": p.title,
                "pageTimings": {
                    "onContentLoad": p.on_content_load.unwrap_or(-1.0),
                    "onLoad": p.on_load.unwrap_or(-1.0),
                },
                "_tab": p.tab,
            });
            if p.on_load.is_none() {
                page["comment"] = json!(
                    "-1: the recording did not see this page's load event (it had not loaded, or \
                     loaded before the recording and the page gave no navigation timing)"
                );
            }
            page
        })
        .collect();
    let (name, version) = browser_version
        .split_once('/')
        .unwrap_or(("Chromium", browser_version));
    let har = json!({"log": {
        "version": "1.2",
        "creator": {"name": "agentbrowser", "version": agentbrowser_protocol::VERSION},
        "browser": {"name": name, "version": version},
        "pages": pages,
        "entries": entries,
        "comment": format!("content mode {}", r.content.as_str()),
    }});
    Built {
        entries: entries_len(&har),
        pages: pages_len(&har),
        dropped: r.dropped,
        missing,
        har,
    }
}

fn entries_len(har: &Value) -> u64 {
    har["log"]["entries"]
        .as_array()
        .map_or(0, |a| a.len() as u64)
}

fn pages_len(har: &Value) -> u64 {
    har["log"]["pages"].as_array().map_or(0, |a| a.len() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies_of_headers() {
        let h = BTreeMap::from([
            ("Cookie".to_string(), "a=1; b=x=y".to_string()),
            (
                "set-cookie".to_string(),
                "s=2; Path=/; HttpOnly\nt=3; Secure".to_string(),
            ),
        ]);
        assert_eq!(
            request_cookies(&h),
            vec![
                json!({"name": "a", "value": "1"}),
                json!({"name": "b", "value": "x=y"})
            ]
        );
        assert_eq!(
            response_cookies(&h),
            vec![
                json!({"name": "s", "value": "2", "path": "/", "httpOnly": true}),
                json!({"name": "t", "value": "3", "secure": true})
            ]
        );
        assert_eq!(har_headers(&h).len(), 3);
        assert_eq!(iso(0.0), "1970-01-01T00:00:00.000Z");
    }
}

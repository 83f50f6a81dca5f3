//! The hops of one request (a redirect chain shares Chromium's request id) and the raw headers
//! Chromium sends for them apart (`requestWillBeSentExtraInfo`, `responseReceivedExtraInfo`).
//! Those come on their own channel, before or after the hop's other events, but one per hop and
//! in order: the n-th belongs to the n-th hop that has them (a hop served from a cache has none),
//! so a 302's raw headers reach the 302's hop even when they come after the next hop began.

use std::collections::BTreeMap;

/// Raw request headers as Chromium sent them, and whether they were cut.
pub(super) type RawRequest = (BTreeMap<String, String>, bool);

/// Raw response headers as Chromium sent them.
#[derive(Debug, Clone)]
pub(super) struct RawResponse {
    pub headers: BTreeMap<String, String>,
    pub truncated: bool,
    /// Bytes of the headers as received, when Chromium said.
    pub size: Option<u64>,
    pub status: Option<u16>,
}

/// One hop: its entry in the ring, and whether raw headers come for it.
#[derive(Debug)]
struct Hop {
    seq: u64,
    extra: bool,
}

/// The raw headers of one kind that came for a request: how many, and those whose hop has not
/// begun yet (with their place in the order).
#[derive(Debug)]
struct Extras<T> {
    seen: usize,
    early: Vec<(usize, T)>,
}

impl<T> Default for Extras<T> {
    fn default() -> Self {
        Extras {
            seen: 0,
            early: Vec::new(),
        }
    }
}

impl<T> Extras<T> {
    /// The next raw headers came: the entry of the hop they belong to, or `None` (kept until
    /// that hop begins).
    fn arrived(&mut self, item: T, hops: &[Hop]) -> Option<(u64, T)> {
        let n = self.seen;
        self.seen += 1;
        match hops.iter().filter(|h| h.extra).nth(n) {
            Some(h) => Some((h.seq, item)),
            None => {
                self.early.push((n, item));
                None
            }
        }
    }

    /// The raw headers that came early for the hop with raw headers number `n`.
    fn take(&mut self, n: usize) -> Option<T> {
        let at = self.early.iter().position(|(i, _)| *i == n)?;
        Some(self.early.swap_remove(at).1)
    }
}

/// One request's hops, first to last.
#[derive(Debug, Default)]
pub(super) struct Chain {
    hops: Vec<Hop>,
    /// Whether the last hop ended (finished or failed).
    pub ended: bool,
    requests: Extras<RawRequest>,
    responses: Extras<RawResponse>,
}

impl Chain {
    /// The entry of the hop in flight.
    pub fn live(&self) -> Option<u64> {
        self.hops.last().filter(|_| !self.ended).map(|h| h.seq)
    }

    /// The entry of the first hop.
    pub fn first(&self) -> Option<u64> {
        self.hops.first().map(|h| h.seq)
    }

    /// Adds a hop (entry `seq`); the raw headers that came for it before it began.
    pub fn push(&mut self, seq: u64) -> (Option<RawRequest>, Option<RawResponse>) {
        let n = self.hops.iter().filter(|h| h.extra).count();
        self.hops.push(Hop { seq, extra: true });
        (self.requests.take(n), self.responses.take(n))
    }

    /// The hop in flight gets no raw headers (Chromium said so): the next ones are the next
    /// hop's.
    pub fn without_extra(&mut self) {
        if let Some(h) = self.hops.last_mut().filter(|_| !self.ended) {
            h.extra = false;
        }
    }

    /// Raw request headers came: the entry of their hop, or `None` when it has not begun.
    pub fn request_extra(&mut self, raw: RawRequest) -> Option<(u64, RawRequest)> {
        self.requests.arrived(raw, &self.hops)
    }

    /// Raw response headers came: the entry of their hop, or `None` when it has not begun.
    pub fn response_extra(&mut self, raw: RawResponse) -> Option<(u64, RawResponse)> {
        self.responses.arrived(raw, &self.hops)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(status: u16) -> RawResponse {
        RawResponse {
            headers: BTreeMap::new(),
            truncated: false,
            size: None,
            status: Some(status),
        }
    }

    #[test]
    fn raw_headers_reach_their_hop_in_any_order() {
        let mut c = Chain::default();
        // The 302's raw headers after the next hop began, the 200's before it.
        c.push(10);
        c.push(11);
        assert_eq!(
            c.response_extra(raw(302)).map(|(s, r)| (s, r.status)),
            Some((10, Some(302)))
        );
        assert!(c.response_extra(raw(301)).is_some_and(|(s, _)| s == 11));
        assert!(
            c.response_extra(raw(200)).is_none(),
            "kept for the third hop"
        );
        let (_, early) = c.push(12);
        assert_eq!(early.and_then(|r| r.status), Some(200));
        // A hop without raw headers is skipped.
        let mut c = Chain::default();
        c.push(1);
        c.without_extra();
        c.push(2);
        assert!(c.response_extra(raw(200)).is_some_and(|(s, _)| s == 2));
        assert!(
            c.request_extra((BTreeMap::new(), false))
                .is_some_and(|(s, _)| s == 2)
        );
    }
}

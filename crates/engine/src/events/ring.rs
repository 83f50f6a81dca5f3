//! A bounded log with sequence numbers: readers page through it with a cursor (`since`), and
//! what fell off the front is counted, never silently lost.

use std::collections::VecDeque;

/// A bounded log of `T`, oldest first.
#[derive(Debug, Clone)]
pub struct Ring<T> {
    items: VecDeque<(u64, T)>,
    capacity: usize,
    next: u64,
    dropped: u64,
}

impl<T: Clone> Ring<T> {
    /// An empty log that keeps at most `capacity` entries (at least one).
    pub fn new(capacity: usize) -> Ring<T> {
        Ring {
            items: VecDeque::new(),
            capacity: capacity.max(1),
            next: 0,
            dropped: 0,
        }
    }

    /// Appends an entry, dropping the oldest when full; returns its sequence number.
    pub fn push(&mut self, item: T) -> u64 {
        if self.items.len() == self.capacity {
            self.items.pop_front();
            self.dropped += 1;
        }
        let seq = self.next;
        self.next += 1;
        self.items.push_back((seq, item));
        seq
    }

    /// The sequence number the next entry will get (a cursor for `since`).
    pub fn cursor(&self) -> u64 {
        self.next
    }

    /// The entries from sequence number `seq` on, and how many of those fell off the front.
    pub fn since(&self, seq: u64) -> (Vec<T>, u64) {
        let first = self.items.front().map_or(self.next, |(s, _)| *s);
        let lost = first.saturating_sub(seq);
        let items = self
            .items
            .iter()
            .filter(|(s, _)| *s >= seq)
            .map(|(_, t)| t.clone())
            .collect();
        (items, lost)
    }

    /// How many entries were dropped since the log began.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Forgets every entry (the cursor keeps counting).
    pub fn clear(&mut self) {
        self.items.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::Ring;

    #[test]
    fn bounded_with_a_cursor() {
        let mut r = Ring::new(3);
        for i in 0..5 {
            r.push(i);
        }
        assert_eq!(r.since(0), (vec![2, 3, 4], 2));
        assert_eq!(r.since(3), (vec![3, 4], 0));
        assert_eq!(r.since(r.cursor()), (vec![], 0));
        assert_eq!(r.dropped(), 2);
        let c = r.cursor();
        r.push(9);
        assert_eq!(r.since(c), (vec![9], 0));
        r.clear();
        assert_eq!(r.since(0).0, Vec::<i32>::new());
    }
}

//! A bounded log with sequence numbers: readers page through it with a cursor (`since`), and
//! what fell off the front is counted, never silently lost. It is bounded by a count of entries
//! and, optionally, by their total size.

use std::collections::VecDeque;

/// A bounded log of `T`, oldest first.
#[derive(Debug, Clone)]
pub struct Ring<T> {
    /// Entries with their sequence number and size in bytes.
    items: VecDeque<(u64, T, usize)>,
    capacity: usize,
    max_bytes: usize,
    bytes: usize,
    next: u64,
    dropped: u64,
}

impl<T: Clone> Ring<T> {
    /// An empty log that keeps at most `capacity` entries (at least one).
    pub fn new(capacity: usize) -> Ring<T> {
        Ring::with_budget(capacity, usize::MAX)
    }

    /// An empty log that keeps at most `capacity` entries and `max_bytes` of them (as sized by
    /// `push_sized`; the newest entry is always kept).
    pub fn with_budget(capacity: usize, max_bytes: usize) -> Ring<T> {
        Ring {
            items: VecDeque::new(),
            capacity: capacity.max(1),
            max_bytes,
            bytes: 0,
            next: 0,
            dropped: 0,
        }
    }

    /// Appends an entry, dropping the oldest when full; returns its sequence number.
    pub fn push(&mut self, item: T) -> u64 {
        self.push_sized(item, 0)
    }

    /// Appends an entry of `size` bytes, dropping the oldest while the log holds too many
    /// entries or bytes; returns its sequence number.
    pub fn push_sized(&mut self, item: T, size: usize) -> u64 {
        while !self.items.is_empty()
            && (self.items.len() >= self.capacity
                || self.bytes.saturating_add(size) > self.max_bytes)
        {
            if let Some((_, _, n)) = self.items.pop_front() {
                self.bytes -= n;
            }
            self.dropped += 1;
        }
        let seq = self.next;
        self.next += 1;
        self.bytes += size;
        self.items.push_back((seq, item, size));
        seq
    }

    /// The sequence number the next entry will get (a cursor for `since`).
    pub fn cursor(&self) -> u64 {
        self.next
    }

    /// The entries from sequence number `seq` on, and how many of those fell off the front.
    pub fn since(&self, seq: u64) -> (Vec<T>, u64) {
        let first = self.items.front().map_or(self.next, |(s, _, _)| *s);
        let lost = first.saturating_sub(seq);
        let items = self
            .items
            .iter()
            .filter(|(s, _, _)| *s >= seq)
            .map(|(_, t, _)| t.clone())
            .collect();
        (items, lost)
    }

    /// Changes the entries kept (for example, marks one); their sizes stay as pushed.
    pub fn for_each_mut(&mut self, mut f: impl FnMut(&mut T)) {
        for (_, t, _) in &mut self.items {
            f(t);
        }
    }

    /// The entry of sequence number `seq`, if it is still kept.
    pub fn get_mut(&mut self, seq: u64) -> Option<&mut T> {
        let first = self.items.front()?.0;
        let i = usize::try_from(seq.checked_sub(first)?).ok()?;
        self.items.get_mut(i).map(|(_, t, _)| t)
    }

    /// How many entries were dropped since the log began.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Forgets every entry (the cursor keeps counting).
    pub fn clear(&mut self) {
        self.items.clear();
        self.bytes = 0;
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
        assert_eq!(r.get_mut(1), None);
        *r.get_mut(3).unwrap() = 7;
        assert_eq!(r.since(3), (vec![7, 4], 0));
        *r.get_mut(3).unwrap() = 3;
        assert_eq!(r.since(r.cursor()), (vec![], 0));
        assert_eq!(r.dropped(), 2);
        let c = r.cursor();
        r.push(9);
        assert_eq!(r.since(c), (vec![9], 0));
        r.clear();
        assert_eq!(r.since(0).0, Vec::<i32>::new());
    }

    #[test]
    fn bounded_by_bytes() {
        let mut r = Ring::with_budget(100, 10);
        r.push_sized('a', 4);
        r.push_sized('b', 4);
        assert_eq!(r.since(0), (vec!['a', 'b'], 0));
        r.push_sized('c', 4);
        assert_eq!(r.since(0), (vec!['b', 'c'], 1));
        // An entry larger than the budget is still kept, alone.
        r.push_sized('d', 50);
        assert_eq!(r.since(0), (vec!['d'], 3));
        r.for_each_mut(|c| *c = c.to_ascii_uppercase());
        assert_eq!(r.since(0).0, vec!['D']);
    }
}

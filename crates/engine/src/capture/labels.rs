//! Where the labels of an annotated screenshot go, so that none hides another or the text of
//! an annotated element: each label tries, in order, the places outside its box that touch it
//! (above, at its left then right end, then along its top edge; left and right of it; below
//! it; the corners diagonally), and only then the corners inside it. The first place inside
//! the image that overlaps no label placed before and no text wins; when none is free, the one
//! that hides least (no label first, then the least text). Small boxes are placed first: they
//! have the fewest places near them, a container many.

use super::region::Rect;

/// Most places tried along a box's top edge, besides its two ends.
const ALONG_TOP: usize = 6;

/// The places a label of `w` x `h` may take for box `b`, in order of preference.
fn candidates(b: Rect, w: f64, h: f64) -> Vec<Rect> {
    let at = |x: f64, y: f64| Rect { x, y, w, h };
    let (left, top, right, bottom) = (b.x, b.y, b.x + b.w, b.y + b.h);
    let mut out = vec![at(left, top - h), at(right - w, top - h)];
    // Along the top edge, between its two ends.
    let room = b.w - 2.0 * w;
    if room > 0.0 {
        let steps = ((room / (w + 2.0)).floor() as usize).min(ALONG_TOP);
        for i in 1..=steps {
            out.push(at(left + i as f64 * (w + 2.0), top - h));
        }
    }
    out.extend([
        at(left - w, top),
        at(right, top),
        at(left, bottom),
        at(right - w, bottom),
        at(left - w, bottom - h),
        at(right, bottom - h),
        at(left - w, top - h),
        at(right, top - h),
        at(left - w, bottom),
        at(right, bottom),
        // Inside, as a last resort.
        at(left, top),
        at(right - w, top),
        at(left, bottom - h),
        at(right - w, bottom - h),
    ]);
    out
}

/// `r` moved (not resized) to lie inside `image` where it can.
fn clamp(r: Rect, image: Rect) -> Rect {
    let x = r.x.min(image.x + image.w - r.w).max(image.x);
    let y = r.y.min(image.y + image.h - r.h).max(image.y);
    Rect { x, y, ..r }
}

/// The area two rectangles share.
fn shared(a: &Rect, b: &Rect) -> f64 {
    a.intersect(b).map_or(0.0, |i| i.w * i.h)
}

/// One label rectangle per box (`sizes[i]` is the width and height of box `i`'s label), all in
/// the same coordinates as `image` (the captured area); `texts` are the text boxes to keep
/// visible.
pub(super) fn place(
    boxes: &[Rect],
    sizes: &[(f64, f64)],
    texts: &[Rect],
    image: Rect,
) -> Vec<Rect> {
    let mut order: Vec<usize> = (0..boxes.len()).collect();
    order.sort_by(|&a, &b| {
        let area = |i: usize| boxes[i].w * boxes[i].h;
        area(a).total_cmp(&area(b)).then(a.cmp(&b))
    });
    let mut placed: Vec<Option<Rect>> = vec![None; boxes.len()];
    let mut taken: Vec<Rect> = Vec::with_capacity(boxes.len());
    for i in order {
        let (w, h) = sizes[i];
        let b = boxes[i];
        // Only what is near the box can meet one of its places.
        let reach = w.max(h) + 2.0;
        let near = Rect {
            x: b.x - reach,
            y: b.y - reach,
            w: b.w + 2.0 * reach,
            h: b.h + 2.0 * reach,
        };
        let texts: Vec<&Rect> = texts
            .iter()
            .filter(|t| t.intersect(&near).is_some())
            .collect();
        let mut best: Option<((bool, f64, usize), Rect)> = None;
        for (rank, c) in candidates(b, w, h).into_iter().enumerate() {
            let inside = clamp(c, image) == c;
            let c = clamp(c, image);
            let labels: f64 = taken.iter().map(|l| shared(l, &c)).sum();
            let text: f64 = texts.iter().map(|t| shared(t, &c)).sum();
            if inside && labels == 0.0 && text == 0.0 {
                best = Some(((false, 0.0, rank), c));
                break;
            }
            // A place moved into the image comes after every place that fits as it is.
            let key = (
                labels > 0.0,
                labels + text,
                rank + if inside { 0 } else { 1000 },
            );
            if best.as_ref().is_none_or(|(k, _)| key < *k) {
                best = Some((key, c));
            }
        }
        let spot = best.map_or_else(
            || {
                clamp(
                    Rect {
                        x: b.x,
                        y: b.y,
                        w,
                        h,
                    },
                    image,
                )
            },
            |(_, r)| r,
        );
        taken.push(spot);
        placed[i] = Some(spot);
    }
    placed.into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(x: f64, y: f64, w: f64, h: f64) -> Rect {
        Rect { x, y, w, h }
    }

    const IMAGE: Rect = Rect {
        x: 0.0,
        y: 0.0,
        w: 800.0,
        h: 600.0,
    };

    #[test]
    fn a_container_and_its_first_child_get_two_places() {
        let main = r(40.0, 60.0, 600.0, 200.0);
        let link = r(40.0, 60.0, 120.0, 18.0);
        let text = r(40.0, 60.0, 118.0, 18.0);
        let got = place(&[main, link], &[(10.0, 14.0), (10.0, 14.0)], &[text], IMAGE);
        assert_eq!(got.len(), 2);
        assert!(got[0].intersect(&got[1]).is_none(), "{got:?}");
        // The small one has the place above its start; the container another one above it.
        assert_eq!(got[1], r(40.0, 46.0, 10.0, 14.0));
        assert_eq!(got[0].y, 46.0, "{got:?}");
    }

    #[test]
    fn text_above_moves_the_label_aside_and_the_top_edge_inside_the_image() {
        // Text right above the box: the label goes to its left.
        let b = r(100.0, 40.0, 50.0, 18.0);
        let above = r(80.0, 20.0, 200.0, 20.0);
        let got = place(&[b], &[(10.0, 14.0)], &[above], IMAGE);
        assert_eq!(got[0], r(90.0, 40.0, 10.0, 14.0));
        // At the image's top edge: not above, and not over the box's own text.
        let top = r(0.0, 0.0, 50.0, 18.0);
        let own = r(0.0, 0.0, 48.0, 18.0);
        let got = place(&[top], &[(10.0, 14.0)], &[own], IMAGE);
        assert_eq!(got[0], r(50.0, 0.0, 10.0, 14.0));
    }

    #[test]
    fn with_no_free_place_the_least_hidden_is_taken() {
        // A box filling the image, all of it text: a place inside the image, over the text.
        let full = r(0.0, 0.0, 800.0, 600.0);
        let got = place(&[full], &[(10.0, 14.0)], &[full], IMAGE);
        assert!(got[0].intersect(&IMAGE) == Some(got[0]), "{got:?}");
    }
}

//! State found by its type: what the session (`Engine`) and each page keep
//! for the capabilities the core does not name, as axum's request extensions do for handlers.
//! A capability registers its state once (`capabilities.rs`) and asks for it by type.

use std::any::{Any, TypeId, type_name};
use std::collections::HashMap;

/// Values by their type, one of each.
#[derive(Default)]
pub struct Parts(HashMap<TypeId, Box<dyn Any + Send + Sync>>);

impl Parts {
    /// Keeps `value` as the one of its type (replacing one kept before).
    pub fn insert<T: Send + Sync + 'static>(&mut self, value: T) {
        self.0.insert(TypeId::of::<T>(), Box::new(value));
    }

    /// The value of type `T`. Every part is registered where the session or the page is made,
    /// so one that is missing is a bug of that registration (it panics naming the type).
    pub fn get<T: 'static>(&self) -> &T {
        self.0
            .get(&TypeId::of::<T>())
            .and_then(|v| v.downcast_ref())
            .unwrap_or_else(|| missing::<T>())
    }

    /// The value of type `T`, if one was registered (for state a capability sets up later).
    pub fn find<T: 'static>(&self) -> Option<&T> {
        self.0
            .get(&TypeId::of::<T>())
            .and_then(|v| v.downcast_ref())
    }

    /// The value of type `T`, to change (see [`Parts::get`]).
    pub fn get_mut<T: 'static>(&mut self) -> &mut T {
        self.0
            .get_mut(&TypeId::of::<T>())
            .and_then(|v| v.downcast_mut())
            .unwrap_or_else(|| missing::<T>())
    }
}

impl std::fmt::Debug for Parts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Parts({} kept)", self.0.len())
    }
}

/// A part asked for that was never registered.
#[cold]
fn missing<T>() -> ! {
    panic!(
        "no {} was registered (see capabilities.rs)",
        type_name::<T>()
    )
}

#[cfg(test)]
mod tests {
    use super::Parts;

    #[test]
    fn one_value_per_type() {
        let mut parts = Parts::default();
        parts.insert(1u32);
        parts.insert(String::from("a"));
        *parts.get_mut::<u32>() += 1;
        parts.insert(String::from("b"));
        assert_eq!(*parts.get::<u32>(), 2);
        assert_eq!(parts.get::<String>(), "b");
    }

    #[test]
    #[should_panic(expected = "no u8 was registered")]
    fn a_missing_part_names_its_type() {
        Parts::default().get::<u8>();
    }
}

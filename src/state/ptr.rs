//! [`ByPtr`]: a shared value compared by identity, so that a struct holding one can derive
//! `PartialEq` (and Yew props can compare it in O(1)) without listing fields by hand.

use std::fmt;
use std::ops::Deref;
use std::rc::Rc;

/// An `Rc<T>` whose equality is pointer identity: two `ByPtr`s are equal when they share one
/// allocation. Values that are rebuilt whenever they change (a run, a scenario) compare
/// correctly and cheaply this way.
pub struct ByPtr<T>(pub Rc<T>);

impl<T> ByPtr<T> {
    pub fn new(v: T) -> ByPtr<T> {
        ByPtr(Rc::new(v))
    }

    /// The shared value, for a callee that wants an `Rc`.
    pub fn rc(&self) -> Rc<T> {
        self.0.clone()
    }
}

impl<T> Clone for ByPtr<T> {
    fn clone(&self) -> Self {
        ByPtr(self.0.clone())
    }
}

impl<T> PartialEq for ByPtr<T> {
    fn eq(&self, o: &Self) -> bool {
        Rc::ptr_eq(&self.0, &o.0)
    }
}

impl<T> Deref for ByPtr<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> From<Rc<T>> for ByPtr<T> {
    fn from(rc: Rc<T>) -> Self {
        ByPtr(rc)
    }
}

impl<T: fmt::Debug> fmt::Debug for ByPtr<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A handle to the latest value of something that changes often (the screen during playback),
/// for a callback that reads it when it fires ("Copy link" reads the step when clicked). The
/// handle itself never changes, so a component that holds one is not re-rendered for it.
pub struct Latest<T>(Rc<std::cell::RefCell<Rc<T>>>);

impl<T> Latest<T> {
    pub fn new(v: Rc<T>) -> Latest<T> {
        Latest(Rc::new(std::cell::RefCell::new(v)))
    }

    /// Replaces the value (the owner does this on every render).
    pub fn set(&self, v: Rc<T>) {
        *self.0.borrow_mut() = v;
    }

    /// The value now.
    pub fn get(&self) -> Rc<T> {
        self.0.borrow().clone()
    }
}

impl<T> Clone for Latest<T> {
    fn clone(&self) -> Self {
        Latest(self.0.clone())
    }
}

impl<T> PartialEq for Latest<T> {
    fn eq(&self, o: &Self) -> bool {
        Rc::ptr_eq(&self.0, &o.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_values_in_two_allocations_differ_and_clones_are_equal() {
        let a = ByPtr::new(vec![1, 2]);
        let b = ByPtr::new(vec![1, 2]);
        assert!(a != b, "compared by identity, not by value");
        assert!(a == a.clone());
        assert_eq!(*a, vec![1, 2]);
    }
}

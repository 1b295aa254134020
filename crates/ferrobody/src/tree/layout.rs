//! Layout of slot-allocated state variables (discrete and auto-update discrete variables).

use crate::scalar::Real;

/// Where one variable lives in a flat vector, and its name.
#[derive(Clone, Debug)]
pub struct VarSlot {
    /// Name for diagnostics.
    pub name: String,
    /// First index in the flat value vector.
    pub start: usize,
    /// Number of scalars.
    pub len: usize,
}

/// Slots of a family of variables and their default values, flattened.
#[derive(Clone, Debug)]
pub struct SlotLayout<T: Real> {
    /// One entry per variable.
    pub slots: Vec<VarSlot>,
    /// Default values, all variables concatenated.
    pub defaults: Vec<T>,
}

impl<T: Real> Default for SlotLayout<T> {
    fn default() -> Self {
        Self {
            slots: Vec::new(),
            defaults: Vec::new(),
        }
    }
}

impl<T: Real> SlotLayout<T> {
    /// Appends a variable with the given default values; returns its index.
    pub fn push(&mut self, name: &str, defaults: &[T]) -> usize {
        let start = self.defaults.len();
        self.slots.push(VarSlot {
            name: name.to_string(),
            start,
            len: defaults.len(),
        });
        self.defaults.extend_from_slice(defaults);
        self.slots.len() - 1
    }

    /// Index range of variable `i` in the flat vector.
    pub fn range(&self, i: usize) -> std::ops::Range<usize> {
        let s = &self.slots[i];
        s.start..s.start + s.len
    }

    /// Number of variables.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether there are no variables.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Converts the defaults to another scalar type.
    pub fn cast<U: Real>(&self) -> SlotLayout<U> {
        SlotLayout {
            slots: self.slots.clone(),
            defaults: self.defaults.iter().map(|x| U::c(x.re())).collect(),
        }
    }
}

//! Values computed at most once per pass, by index, without clearing between passes: each slot
//! carries the stamp of the pass that filled it. Mesh-against-mesh contact carries the other
//! mesh's vertices and tree boxes into the first mesh's frame this way, each only when first
//! needed and once per evaluation.

/// A lazily filled table, valid for the current pass.
#[derive(Clone, Debug, Default)]
pub struct PassCache<V: Copy + Default> {
    pass: u32,
    stamps: Vec<u32>,
    values: Vec<V>,
}

impl<V: Copy + Default> PassCache<V> {
    /// Starts a pass over `len` slots: every slot is stale until computed again.
    pub fn start(&mut self, len: usize) {
        self.pass = self.pass.wrapping_add(1);
        if self.pass == 0 {
            self.stamps.fill(0);
            self.pass = 1;
        }
        if self.stamps.len() < len {
            self.stamps.resize(len, 0);
            self.values.resize(len, V::default());
        }
    }

    /// Slot `i` of this pass, computed by `f` if this pass has not filled it yet.
    #[inline]
    pub fn get_or(&mut self, i: usize, f: impl FnOnce() -> V) -> V {
        if self.stamps[i] != self.pass {
            self.values[i] = f();
            self.stamps[i] = self.pass;
        }
        self.values[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_slot_is_computed_once_a_pass() {
        let mut cache = PassCache::<u64>::default();
        let mut calls = 0;
        for pass in 1..=3u64 {
            cache.start(4);
            for _ in 0..2 {
                let v = cache.get_or(2, || {
                    calls += 1;
                    10 * pass
                });
                assert_eq!(v, 10 * pass);
            }
        }
        assert_eq!(calls, 3);
    }
}

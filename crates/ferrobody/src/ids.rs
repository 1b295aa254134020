//! Typed indices (Simbody-style newtypes) so that a body index is never mistaken for a force
//! index.

use serde::{Deserialize, Serialize};

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub struct $name(pub usize);

        impl $name {
            /// The raw index.
            #[inline(always)]
            pub fn index(self) -> usize {
                self.0
            }
        }
    };
}

id_type!(
    /// Index of a body (mobilized body); `BodyId(0)` is Ground.
    BodyId
);
id_type!(
    /// Index of a force element in the model.
    ForceId
);
id_type!(
    /// Index of a discrete state variable.
    DiscreteVarId
);
id_type!(
    /// Index of an auto-update discrete state variable.
    AutoUpdateVarId
);
id_type!(
    /// Index of a continuous auxiliary state variable (a `z`).
    ZId
);

impl BodyId {
    /// Ground, the root of every multibody tree.
    pub const GROUND: BodyId = BodyId(0);
}

//! IFP to glTF 2.0 on a model's skeleton (docs/ANIMATION.md, "glTF").

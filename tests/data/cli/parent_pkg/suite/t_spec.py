# `from kit import Spec`: kit is a package in the parent folder.
import tilelang.language as T

from kit import Spec

abs_spec = Spec("abs", T.tile.abs)
assert abs_spec.title == "op abs"

# Every statement form (expected dump: statements.ast).
import a
import a.b as c, d
from . import x
from .. mod import y as z
from a.b import (c, d as e,)
from m import *
from ... import w


def f(a, b: int = 1, /, c=2, *args, d, e: str = "x", **kw) -> int:
    """Doc."""
    return a


def g(*, k): pass


@deco
@tilelang.jit(out_idx=[-1])
def h(): return


class C(Base, metaclass=Meta):
    x: int = 3
    y: int
    def m(self): ...


@dataclass
class D: pass


class E(): pass


x = y = 1
a, b = c
[a, *b] = c
(a, b), c = d
a.b = 1
a[i] += 1
x -= 1; y *= 2; z //= 3; w **= 2; v @= m; u |= 1; s ^= 1
r &= 1; q <<= 1; p >>= 1; o %= 1; n /= 2;
for i in range(10):
    if i % 2: continue
    elif i > 5: break
    else: pass
else:
    pass
for i, (j, k) in enumerate(x): pass
for x, in y: pass
while x:
    x -= 1
else:
    y = 1
with open(p) as f, lock:
    pass
with (a as b, c as d,):
    pass
with x as (a, b):
    pass
with (a, b):
    pass
with (a, b) as c:
    pass
assert x, "msg"
assert y
try:
    pass
except ValueError as e:
    raise RuntimeError("x") from e
except (A, B):
    raise
except:
    pass
else:
    pass
finally:
    pass
try:
    pass
finally:
    pass


def outer():
    global g
    v = 1
    def inner():
        nonlocal v
        v += 1
    del v, g
    yield v
    x = yield
    yield from inner()
    return a, b


if __name__ == "__main__":
    main()

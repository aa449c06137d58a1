# Every expression form the parser builds (expected dump: expressions.ast).
x = name
n = 1, 0x1F, 0o17, 0b101, 1_000, 9223372036854775807
big = 0xFFFFFFFFFFFFFFFF
huge = 123456789012345678901234567890
f = 1.5, 1e-6, .5, 1., 1_0.5, 2E+3, 1e999
s = 'a', "b", '''c''', """d""", r'\n', b'\x00\xff', rb'\d', u'u', 'con' "cat"
c = True, False, None, ...
a = obj.attr.chain
sub = a[1], a[1:2], a[::3], a[1:2, ::3, i], a[...], a[:, 0], a[i,], a[::], a[lo:]
call = f(), f(a, b), f(*args, **kw), f(a, k=1, *rest, **more), f(x for x in y), f(a,)
ops = a + b - c * d / e // f % g ** h @ m
bits = a << 1 >> 2 & 3 | 4 ^ 5
un = -a, +a, ~a, not a, - - a, -2 ** -2
bo = a and b and c or d or e
cmp = a < b <= c > d >= e == f != g
cmp2 = a is b, a is not b, a in b, a not in b, not a in b
t = x if c else y if d else z
lam = lambda: 0, lambda a, b=1, *c, d, e=2, **f: a, lambda *, k: k, lambda x: lambda y: x + y
tup = (), (1,), (1, 2), (1, 2,)
lst = [], [1], [1, *rest, 2,]
d = {}, {1: 2, **more, 'k': v}, {**a}
st = {1, 2, *s}
comp = [x for x in y], {x for x in y if x}, {k: v for k, v in items}
gen = (x for xs in y for x in xs if x if x > 1)
w = (y := 10)
paren = (a + b) * c, ((a)), -(a ** b), (-a) ** b
prec = a + b * c ** -d, a | b & c ^ d, a - b - c, a ** b ** c
mixed = not a == b and c < d or e
fancy = f(a)(b)[c].d(*e)

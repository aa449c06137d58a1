# f-strings: literal parts, replacement fields, conversions, format specs.
a = f"plain"
b = f"{x}"
c = f"{x!r} and {y!s:>8} and {z!a}"
d = f"{x:{width}.{prec}}"
e = f"{{literal}} {x} }}"
g = f"{x=}"
h = "pre" f"{x}" "post" f"!"
i = f'{d["k"]}'
j = f"""multi
{x}
line"""
k = rf"\d{x}"
m = f"{a + b:.2f}"
n = f"{f(x)!r:^10}"
o = f"{x = }"
p = f"tab\t{x}\n"
q = f"{x:}"
r = f"{'nested'}"
s = f"{[1, 2][0]}"
t = f"{a if b else c}"
u = f"{x, y}"

# expect: 2:8: positional argument follows keyword argument
f(a=1, b)

# expect: 2:6: generator expression must be parenthesized
f(a, x for x in y)

# expect: 2:12: expected ':' after the function signature, found NEWLINE
def f(a, b)
    return a

# expect: 2:5: '[' was never closed
x = [1, 2

def f():
    pass

# expect: 2:8: '(' was never closed
x = foo(1,
    2

# expect: 4:1: expected 'except' or 'finally' block, found 'x'
try:
    pass
x = 1

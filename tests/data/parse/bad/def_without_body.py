# expect: 3:1: expected an indented block after function definition on line 2, found 'x'
def f():
x = 1

# expect: 2:9: expected an indented block after function definition on line 2, found end of file
def f():

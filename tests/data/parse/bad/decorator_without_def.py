# expect: 3:1: expected 'def' or 'class' after the decorator, found 'x'
@deco
x = 1

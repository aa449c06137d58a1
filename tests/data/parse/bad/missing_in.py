# expect: 2:7: expected 'in' after 'for' target, found 'y'
for x y:
    pass

# expect: 2:10: expected ':' after 'if' condition, found NEWLINE
if x == 1
    pass

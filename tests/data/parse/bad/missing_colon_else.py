# expect: 4:5: expected ':' after 'else', found NEWLINE
if a:
    pass
else
    pass

# expect: 4:5: unindent does not match any outer indentation level
if x:
        a = 1
    b = 2

# expect: 3:5: unexpected indent
a = 1
    b = 2

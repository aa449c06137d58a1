# expect: 2:7: invalid character '?'
x = 1 ? 2

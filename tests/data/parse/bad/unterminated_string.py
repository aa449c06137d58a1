# expect: 2:5: unterminated string literal (detected at line 2)
s = 'abc
t = 1

# expect: 2:6: unmatched ')'
x = 1)

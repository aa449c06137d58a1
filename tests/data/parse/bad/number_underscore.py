# expect: 2:5: invalid decimal literal
n = 1__000
